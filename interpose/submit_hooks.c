/* placeholder until the generator lands */
#include "hook_entry.h"
const cm_hook_entry cm_submit_table[1];
const size_t cm_submit_count = 0;
