/* prog_race_nonblocking: the free-then-reuse race (race.h) between two
 * non-blocking streams, which nothing orders implicitly. */
#include "race.h"

int main(void)
{
	return run_race(cudaStreamNonBlocking, "race_nonblocking", false);
}
