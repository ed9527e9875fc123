/* core/host/host.h - the host wing: the pinned host cache, one per heap,
 * its own lock (taken before a device lock, never under one). Calls the
 * memory, order and record wings. */
#ifndef CM_HOST_H
#define CM_HOST_H

#include "../mem/mem.h"

/* host.c: the pinned host cache, one per heap, its own lock (taken before
 * a device lock, never under one). */
cm_status cm_host_create(cm_heap *h);
void cm_host_destroy(cm_heap *h);
void cm_host_forget_device(cm_heap *h, int dev);
size_t cm_host_trim(cm_heap *h, size_t keep); /* to at most keep cached bytes */
void cm_host_stats(cm_heap *h, cm_stats *st);
void cm_host_view(cm_heap *h, cm_stats *st); /* without the lock: for reports under a device's */
bool cm_host_check(cm_heap *h, FILE *err);

#endif
