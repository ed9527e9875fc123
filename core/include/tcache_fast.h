/* core/include/tcache_fast.h - what the hot hooks may include of the serve
 * wing: its per-thread caches' lock-free fast path, inline
 * (core/serve/tcache_fast.h, which owns it), so that a cache-hit pair
 * makes no call. Nothing else of the wing is visible through it.
 */
#include "../serve/tcache_fast.h"
