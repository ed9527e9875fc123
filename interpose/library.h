/* interpose/library.h - the library's process state, shared by the hooks.
 *
 * One heap for the process, created at the first hook that needs it (the
 * runtime must be resolvable and report at least one device; otherwise
 * every hook passes through). The heap is dropped, without freeing, in a
 * forked child, where CUDA is unusable anyway.
 */
#ifndef CM_LIBRARY_H
#define CM_LIBRARY_H

#include <stdatomic.h>
#include <stdbool.h>

#include "cachemalloc.h"
#include "real.h"

/* The process heap, or NULL: pass everything through. */
cm_heap *cm_lib_heap(void);

/* The calling thread's current device, without cudaGetDevice when the
 * driver's current context is known. */
bool cm_lib_device(int *dev);

/* The error a failed core call means to the program, left as the
 * runtime's last error too. */
cudaError_t cm_lib_fail(cm_status st);

/* Whether stream s is capturing a graph; cheap while no capture began. */
bool cm_lib_capturing(cudaStream_t s);
bool cm_lib_capture_active(void); /* any capture begun and not ended */

/* While the program captures a graph in global or thread-local mode, the
 * runtime refuses calls like cudaMalloc or an event query from any thread
 * in those modes, and the capture dies of them: the library's own calls
 * run in relaxed mode between these two, as PyTorch's do. */
bool cm_lib_relax(enum cudaStreamCaptureMode *saved);
void cm_lib_unrelax(bool relaxed, enum cudaStreamCaptureMode saved);
void cm_lib_capture_began(void);
void cm_lib_capture_ended(void);

#endif
