/* interpose/backend_cuda.h - the core's backend table over real CUDA. */
#ifndef CM_BACKEND_CUDA_H
#define CM_BACKEND_CUDA_H

#include "backend.h"

/* Fills be for a process with this many devices; the real functions must
 * be resolved (real.h). */
void cm_cuda_backend_init(cm_backend *be, int devices);

/* Adds the VMM operations when the driver has them (vmm_cuda.c). */
void cm_vmm_backend_init(cm_backend *be, int devices);

#endif
