/* prog_race_blocking: the free-then-reuse race (race.h) between two
 * blocking streams, which the legacy default stream orders but which are
 * not ordered with each other. */
#include "race.h"

int main(void)
{
	return run_race(cudaStreamDefault, "race_blocking", false);
}
