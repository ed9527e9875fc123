/* core/record/stats.c - the reports generated from the field lists of stats.h.
 * Wing: record. Calls no other file of the core.
 */
#include <inttypes.h>

#include "record.h"

void cm_stats_level_add(uint64_t *cur, uint64_t *peak, int64_t delta)
{
	*cur = (uint64_t)((int64_t)*cur + delta);
	if (*cur > *peak)
		*peak = *cur;
}

void cm_stats_add(cm_stats *into, const cm_stats *from)
{
#define CM_X(name, desc) into->name += from->name;
	CM_STATS_COUNTERS(CM_X)
#undef CM_X
#define CM_X(name, desc) into->name += from->name; into->peak_##name += from->peak_##name;
	CM_STATS_LEVELS(CM_X)
#undef CM_X
}

void cm_stats_print_text(const cm_stats *st, FILE *out)
{
	fprintf(out, "cachemalloc statistics\n");
#define CM_X(name, desc) fprintf(out, "  %-24s %16" PRIu64 "  %s\n", #name, st->name, desc);
	CM_STATS_COUNTERS(CM_X)
#undef CM_X
#define CM_X(name, desc)                                                              \
	fprintf(out, "  %-24s %16" PRIu64 "  %s (peak %" PRIu64 ")\n", #name, st->name, \
		desc, st->peak_##name);
	CM_STATS_LEVELS(CM_X)
#undef CM_X
}

void cm_stats_print_json_fields(const cm_stats *st, FILE *out)
{
	const char *sep = "";
#define CM_X(name, desc) fprintf(out, "%s\"" #name "\": %" PRIu64, sep, st->name), sep = ", ";
	CM_STATS_COUNTERS(CM_X)
#undef CM_X
#define CM_X(name, desc)                                                             \
	fprintf(out, "%s\"" #name "\": %" PRIu64 ", \"peak_" #name "\": %" PRIu64, sep, \
		st->name, st->peak_##name), sep = ", ";
	CM_STATS_LEVELS(CM_X)
#undef CM_X
}

void cm_stats_print_json(const cm_stats *st, FILE *out)
{
	fputc('{', out);
	cm_stats_print_json_fields(st, out);
	fputs("}\n", out);
}

void cm_stats_print_summary(const cm_stats *st, FILE *out)
{
	fprintf(out, "%" PRIu64 " allocations served (%" PRIu64 " cache hits), %" PRIu64
		" device allocations, peak reserved %.1f MiB", st->alloc_calls - st->oom_count,
		st->cache_hits, st->raw_alloc_calls, (double)st->peak_reserved_bytes / 1048576.0);
}
