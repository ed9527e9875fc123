/* core/internal.h - every wing's header, for tests and tools that look
 * inside the core (tests -> anything). Code inside core/ includes its own
 * wing's header instead, which sees only the wings below. */
#ifndef CM_INTERNAL_H
#define CM_INTERNAL_H

#include "serve/serve.h"

#endif
