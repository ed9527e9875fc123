/* interpose/capture_state.h - whether CUDA has a capture going
 * (capture_state.c): what the backend needs of graph capture. */
#ifndef CM_CAPTURE_STATE_H
#define CM_CAPTURE_STATE_H

#include <stdbool.h>

#include "real.h"

/* A capture began, or ended (or its begin was refused): counted. */
void cm_capture_state_began(void);
void cm_capture_state_ended(void);

/* Whether stream s is capturing a graph; cheap while no capture began. */
bool cm_lib_capturing(CUstream s);
bool cm_lib_capture_active(void); /* any capture begun and not ended */

/* While the program captures a graph in global or thread-local mode, the
 * runtime refuses calls like cudaMalloc or an event query from any thread
 * in those modes, and the capture dies of them: the library's own calls
 * run in relaxed mode between these two, as PyTorch's do. */
bool cm_lib_relax(CUstreamCaptureMode *saved);
void cm_lib_unrelax(bool relaxed, CUstreamCaptureMode saved);

#endif
