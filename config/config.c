/* config/config.c - parsing CACHEMALLOC_CONF and CACHEMALLOC_SIM_MEMORY.
 *
 * Owns the one table of options (cm_options). Each row holds a key's name,
 * type, default, accepted values, description and setter; the error
 * messages, the list of accepted keys and the --help text are all made from
 * it, so they cannot drift apart.
 *
 * Invariants:
 * - Parsing never allocates, never aborts and never exits. It works on
 *   (pointer, length) slices of the caller's string, so any length is fine
 *   and the cost is linear in it.
 * - A setter either accepts the whole value and writes cfg, or returns the
 *   reason and leaves cfg untouched: a bad entry keeps the previous value.
 * - Each bad entry gives exactly one line on err (the first
 *   CM_MAX_REPORTED per string; beyond that one summary line, so that a
 *   megabyte of commas cannot flood stderr). The line starts with
 *   "cachemalloc: ", names the variable, key and value (escaped, at most
 *   CM_QUOTE_MAX bytes shown) and says what is accepted.
 * - Entries are split at commas, except inside a value that starts with
 *   '[' (roundup_power2_divisions' list), which runs to its ']'. Each entry
 *   is split at its first ':'; keys are case-sensitive, as in PyTorch.
 * - roundup_power2_divisions reproduces PyTorch's parser
 *   (c10/core/AllocatorConfig.cpp, parseRoundUpPower2Divisions); see
 *   cm_roundup_at and cm_roundup_rest. The lookup by request size is the
 *   rounding's, in core/record/size.c.
 */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <strings.h>

#define CM_MIB ((size_t)1 << 20)
#define CM_QUOTE_MAX 64
#define CM_MAX_REPORTED 32
#define CM_CONF_VAR "CACHEMALLOC_CONF"
#define CM_SIM_VAR "CACHEMALLOC_SIM_MEMORY"
#define CM_SIM_DEFAULT ((size_t)16 << 30)
/* PyTorch: kLargeBuffer / kMB, and its check is ">=": 20 is accepted. */
#define CM_SPLIT_MIN_MB 20

typedef struct cm_slice {
	const char *p;
	size_t n;
} cm_slice;

/* Returns NULL when the value was applied, else why it was not. */
typedef const char *(*cm_setter)(cm_config *cfg, cm_slice value);

typedef struct cm_option {
	const char *name;
	const char *type;
	const char *default_text;
	const char *accepted; /* quoted verbatim in error messages */
	const char *description;
	cm_setter set;
} cm_option;

/* ---- slices and numbers ---- */

static cm_slice cm_slice_of(const char *p, size_t n)
{
	cm_slice s = { p, n };
	return s;
}

static bool cm_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static bool cm_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static cm_slice cm_trim(cm_slice s)
{
	while (s.n > 0 && cm_is_space(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n > 0 && cm_is_space(s.p[s.n - 1]))
		s.n--;
	return s;
}

static bool cm_eq(cm_slice s, const char *lit)
{
	return strlen(lit) == s.n && memcmp(s.p, lit, s.n) == 0;
}

static bool cm_eq_nocase(cm_slice s, const char *lit)
{
	return strlen(lit) == s.n && strncasecmp(s.p, lit, s.n) == 0;
}

static bool cm_is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static unsigned cm_log2(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

/* A plain decimal integer: digits only; signs, spaces inside, junk and
 * overflow are all rejected (strtoull would accept " -1" as 2^64-1). */
static const char *cm_parse_u64(cm_slice s, uint64_t *out)
{
	uint64_t v = 0;

	if (s.n == 0)
		return "no number";
	if (s.p[0] == '-' && s.n > 1 && cm_is_digit(s.p[1]))
		return "negative";
	if (!cm_is_digit(s.p[0]))
		return "not a number";
	for (size_t i = 0; i < s.n; i++) {
		unsigned d = (unsigned)(s.p[i] - '0');

		if (!cm_is_digit(s.p[i]))
			return "trailing characters after the number";
		if (v > (UINT64_MAX - d) / 10)
			return "too large";
		v = v * 10 + d;
	}
	*out = v;
	return NULL;
}

/* Digits with an optional fraction ("0.5", ".5", "1."). Written by hand
 * because strtod follows the host program's locale and accepts nan, inf,
 * hex and exponents. Precision beyond 18 fraction digits is dropped. */
static const char *cm_parse_decimal(cm_slice s, double *out)
{
	double whole = 0;
	uint64_t frac = 0, scale = 1;
	bool digits = false;
	size_t i = 0;

	if (s.n > 0 && s.p[0] == '-')
		return "negative";
	for (; i < s.n && cm_is_digit(s.p[i]); i++, digits = true)
		whole = whole * 10 + (s.p[i] - '0');
	if (i < s.n && s.p[i] == '.') {
		for (i++; i < s.n && cm_is_digit(s.p[i]); i++, digits = true) {
			if (scale <= UINT64_C(100000000000000000)) {
				frac = frac * 10 + (uint64_t)(s.p[i] - '0');
				scale *= 10;
			}
		}
	}
	if (!digits)
		return "not a number";
	if (i < s.n)
		return "trailing characters after the number";
	*out = whole + (double)frac / (double)scale;
	return NULL;
}

/* An integer number of MiB, converted to bytes without overflow. */
static const char *cm_parse_mib(cm_slice s, uint64_t *mib, size_t *bytes)
{
	const char *why = cm_parse_u64(s, mib);

	if (why)
		return why;
	if (*mib > SIZE_MAX / CM_MIB)
		return "too large";
	*bytes = (size_t)*mib * CM_MIB;
	return NULL;
}

static const char *cm_parse_bool(cm_slice s, bool *out)
{
	if (cm_eq_nocase(s, "true") || cm_eq(s, "1"))
		*out = true;
	else if (cm_eq_nocase(s, "false") || cm_eq(s, "0"))
		*out = false;
	else
		return "not a boolean";
	return NULL;
}

/* A value named by one of a few words (case-insensitive). */
typedef struct cm_choice {
	const char *name;
	int value;
} cm_choice;

/* The choice named s in the list (which a NULL name ends), or NULL. */
static const cm_choice *cm_choice_of(cm_slice s, const cm_choice *list)
{
	for (; list->name; list++)
		if (cm_eq_nocase(s, list->name))
			return list;
	return NULL;
}

/* A setter of a field of cfg (of type type) by the words of its choices,
 * the {name, value} pairs that follow why (the reason for any other). */
#define CM_CHOICE_SETTER(setter, field, type, why, ...)                      \
	static const char *setter(cm_config *cfg, cm_slice v)                 \
	{                                                                      \
		static const cm_choice choices[] = { __VA_ARGS__, { NULL, 0 } }; \
		const cm_choice *c = cm_choice_of(v, choices);                   \
		if (c)                                                           \
			cfg->field = (type)c->value;                             \
		return c ? NULL : why;                                           \
	}

/* Copies a path; control characters are refused since such a name is
 * almost surely a quoting mistake, and would garble later messages. */
static const char *cm_copy_path(cm_slice s, char *dst)
{
	if (s.n == 0)
		return "empty path";
	if (s.n >= CM_CONFIG_PATH_MAX)
		return "path too long";
	for (size_t i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		if (c < 0x20 || c == 0x7f)
			return "control character in the path";
	}
	memcpy(dst, s.p, s.n);
	dst[s.n] = '\0';
	return NULL;
}

static const char *cm_size_parse(cm_slice s, size_t *out)
{
	unsigned shift = 0;
	uint64_t v;
	const char *why;

	s = cm_trim(s);
	if (s.n > 0) {
		switch (s.p[s.n - 1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		default: break;
		}
		if (shift)
			s = cm_trim(cm_slice_of(s.p, s.n - 1));
	}
	why = cm_parse_u64(s, &v);
	if (why)
		return why;
	if (v > (SIZE_MAX >> shift))
		return "too large";
	*out = (size_t)v << shift;
	return NULL;
}

/* The items of a list "[a,b,...]" (v, its ']' last), each trimmed, in
 * order to item; the first reason one gives ends the list. */
static const char *cm_list_items(cm_slice v, const char *(*item)(void *, cm_slice), void *ctx)
{
	cm_slice inner = cm_trim(cm_slice_of(v.p + 1, v.n - 2));
	size_t pos = 0;

	if (inner.n == 0)
		return "empty list";
	for (;;) {
		const char *comma = memchr(inner.p + pos, ',', inner.n - pos);
		size_t end = comma ? (size_t)(comma - inner.p) : inner.n;
		const char *why = item(ctx, cm_trim(cm_slice_of(inner.p + pos, end - pos)));

		if (why || !comma)
			return why;
		pos = end + 1;
	}
}

/* ---- roundup_power2_divisions ---- */

typedef struct cm_roundup_state {
	unsigned *div;   /* the intervals' division counts being set */
	bool first;      /* no size key seen yet */
	bool saw_rest;   /* '>' seen */
	size_t last;     /* interval of the last size key */
} cm_roundup_state;

/* A division count: a power of two, or 0 inside a list (PyTorch refuses 0
 * in the single-value form, as isPowerOf2_64(0) is false). */
static const char *cm_parse_divisions(cm_slice s, bool zero_ok, unsigned *out)
{
	uint64_t v;
	const char *why = cm_parse_u64(s, &v);

	if (why)
		return why;
	if (!(cm_is_pow2(v) || (zero_ok && v == 0)))
		return zero_ok ? "divisions must be a power of two or 0"
			       : "divisions must be a power of two";
	if (v > UINT_MAX)
		return "too large";
	*out = (unsigned)v;
	return NULL;
}

/* "SIZE:N": SIZE MiB (a power of two) selects interval log2(SIZE), clamped
 * to the last one. The first size key also fills every interval below it;
 * intervals between later keys keep their value. As PyTorch. */
static const char *cm_roundup_at(cm_roundup_state *st, cm_slice key, unsigned value)
{
	uint64_t mib;
	size_t index;
	const char *why = cm_parse_u64(key, &mib);

	if (why)
		return why;
	if (!cm_is_pow2(mib))
		return "sizes must be powers of two (MiB)";
	index = cm_log2(mib);
	if (index > CM_ROUNDUP_INTERVALS - 1)
		index = CM_ROUNDUP_INTERVALS - 1;
	for (size_t i = 0; st->first && i < index; i++)
		st->div[i] = value;
	st->first = false;
	st->div[index] = value;
	st->last = index;
	return NULL;
}

/* ">:N" fills every interval above the last size key (above interval 0
 * if none came before), as current PyTorch (last_index + 1). */
static const char *cm_roundup_rest(cm_roundup_state *st, unsigned value)
{
	if (st->saw_rest)
		return "'>' appears twice";
	st->saw_rest = true;
	for (size_t i = st->last + 1; i < CM_ROUNDUP_INTERVALS; i++)
		st->div[i] = value;
	return NULL;
}

/* One item of the list; state is the list's cm_roundup_state. */
static const char *cm_roundup_item(void *state, cm_slice item)
{
	cm_roundup_state *st = state;
	const char *colon, *why;
	cm_slice key, val;
	unsigned value;

	if (item.n == 0)
		return "empty item in the list";
	colon = memchr(item.p, ':', item.n);
	if (!colon)
		return "list item without ':'";
	key = cm_trim(cm_slice_of(item.p, (size_t)(colon - item.p)));
	val = cm_trim(cm_slice_of(colon + 1, item.n - (size_t)(colon - item.p) - 1));
	if (key.n == 0)
		return "list item with an empty size";
	if (val.n == 0)
		return "list item with an empty division count";
	why = cm_parse_divisions(val, true, &value);
	if (why)
		return why;
	if (cm_eq(key, ">"))
		return cm_roundup_rest(st, value);
	return cm_roundup_at(st, key, value);
}

static const char *cm_roundup_list(unsigned *div, cm_slice v)
{
	cm_roundup_state st = { div, true, false, 0 };
	const char *close = memchr(v.p, ']', v.n);

	if (!close)
		return "missing ']'";
	if (close != v.p + v.n - 1)
		return "text after ']'";
	return cm_list_items(v, cm_roundup_item, &st);
}

/* Works on a copy so that a bad list leaves the previous setting whole;
 * the copy starts from the current values because PyTorch applies a list
 * on top of what is there (only the intervals it names change). */
static const char *cm_set_roundup(cm_config *cfg, cm_slice v)
{
	unsigned div[CM_ROUNDUP_INTERVALS], value;
	const char *why;

	memcpy(div, cfg->roundup_divisions, sizeof div);
	if (v.p[0] == '[') {
		why = cm_roundup_list(div, v);
	} else {
		why = cm_parse_divisions(v, false, &value);
		for (size_t i = 0; !why && i < CM_ROUNDUP_INTERVALS; i++)
			div[i] = value;
	}
	if (why)
		return why;
	memcpy(cfg->roundup_divisions, div, sizeof div);
	return NULL;
}

/* ---- the other setters ---- */

static const char *cm_set_max_split(cm_config *cfg, cm_slice v)
{
	uint64_t mib;
	size_t bytes;
	const char *why = cm_parse_mib(v, &mib, &bytes);

	if (why)
		return why;
	if (mib < CM_SPLIT_MIN_MB)
		return "below the minimum";
	cfg->max_split_size = bytes;
	return NULL;
}

static const char *cm_set_non_split_rounding(cm_config *cfg, cm_slice v)
{
	uint64_t mib;

	return cm_parse_mib(v, &mib, &cfg->max_non_split_rounding);
}

static const char *cm_set_gc_threshold(cm_config *cfg, cm_slice v)
{
	double d;
	const char *why = cm_parse_decimal(v, &d);

	if (why)
		return why;
	if (!(d > 0.0 && d < 1.0))
		return "out of range";
	cfg->garbage_collection_threshold = d;
	return NULL;
}

static const char *cm_set_expandable(cm_config *cfg, cm_slice v)
{
	return cm_parse_bool(v, &cfg->expandable_segments);
}

static const char *cm_set_release_threshold(cm_config *cfg, cm_slice v)
{
	uint64_t mib;

	return cm_parse_mib(v, &mib, &cfg->release_threshold);
}

/* "auto" (auto_bytes), or an integer number of MiB, which never reaches
 * auto_bytes (SIZE_MAX: not a whole number of MiB). */
static const char *cm_parse_auto_mib(cm_slice v, size_t auto_bytes, size_t *out)
{
	uint64_t mib;
	size_t bytes;

	if (cm_eq_nocase(v, "auto")) {
		*out = auto_bytes;
		return NULL;
	}
	const char *why = cm_parse_mib(v, &mib, &bytes);
	if (!why && bytes == auto_bytes)
		return "too large";
	if (!why)
		*out = bytes;
	return why;
}

static const char *cm_set_max_pending(cm_config *cfg, cm_slice v)
{
	return cm_parse_auto_mib(v, CM_PENDING_AUTO, &cfg->max_pending);
}

/* ---- pinned host memory ---- */

static const char *cm_set_pinned_max_cached(cm_config *cfg, cm_slice v)
{
	return cm_parse_auto_mib(v, CM_PINNED_AUTO, &cfg->pinned_max_cached);
}

static const char *cm_set_pinned_register(cm_config *cfg, cm_slice v)
{
	return cm_parse_bool(v, &cfg->pinned_use_cuda_host_register);
}

static const char *cm_set_fraction(cm_config *cfg, cm_slice v)
{
	double d;
	const char *why = cm_parse_decimal(v, &d);

	if (why)
		return why;
	if (!(d > 0.0 && d <= 1.0))
		return "out of range";
	cfg->per_process_memory_fraction = d;
	return NULL;
}

CM_CHOICE_SETTER(cm_set_free_fence, free_fence, cm_free_fence, "unknown fence",
		 { "gpu", CM_FENCE_GPU }, { "host", CM_FENCE_HOST }, { "none", CM_FENCE_NONE })

static const char *cm_set_stats(cm_config *cfg, cm_slice v)
{
	static const char json[] = "exit-json";
	const size_t jn = sizeof json - 1;
	const char *why;

	if (cm_eq_nocase(v, "off")) {
		cfg->stats = CM_STATS_OFF;
	} else if (cm_eq_nocase(v, "exit")) {
		cfg->stats = CM_STATS_EXIT;
	} else if (v.n > jn && strncasecmp(v.p, json, jn) == 0 && v.p[jn] == ':') {
		why = cm_copy_path(cm_trim(cm_slice_of(v.p + jn + 1, v.n - jn - 1)),
				   cfg->stats_path);
		if (why)
			return why;
		cfg->stats = CM_STATS_EXIT_JSON;
	} else {
		return cm_eq_nocase(v, json) ? "exit-json needs :PATH"
					     : "unknown mode";
	}
	return NULL;
}

static const char *cm_set_oom_snapshot(cm_config *cfg, cm_slice v)
{
	return cm_copy_path(v, cfg->oom_snapshot);
}

CM_CHOICE_SETTER(cm_set_report_signal, report_signal, int, "unknown signal", { "none", 0 },
		 { "SIGUSR1", SIGUSR1 }, { "USR1", SIGUSR1 }, { "SIGUSR2", SIGUSR2 },
		 { "USR2", SIGUSR2 })

static const char *cm_set_memgetinfo(cm_config *cfg, cm_slice v)
{
	return cm_parse_bool(v, &cfg->memgetinfo_counts_cache);
}

static const char *cm_set_track_submissions(cm_config *cfg, cm_slice v)
{
	return cm_parse_bool(v, &cfg->track_submissions);
}

CM_CHOICE_SETTER(cm_set_nvtx_memory, nvtx_memory, cm_nvtx_mode, "unknown mode",
		 { "auto", CM_NVTX_AUTO }, { "on", CM_NVTX_ON }, { "off", CM_NVTX_OFF })

/* ---- the user's tools: log, metrics, memory_limit_mb (section 8) ---- */

static const char *cm_set_log(cm_config *cfg, cm_slice v)
{
	return cm_copy_path(v, cfg->log_path);
}

/* What follows the last ':' of s (NULL: none), and whether it looks like
 * a number (a digit, sign or point first): then it is meant as one. */
static const char *cm_last_colon(cm_slice s, cm_slice *tail)
{
	for (size_t i = s.n; i > 0; i--) {
		if (s.p[i - 1] == ':') {
			*tail = cm_slice_of(s.p + i, s.n - i);
			return s.p + i - 1;
		}
	}
	return NULL;
}

static bool cm_numeric_looking(cm_slice t)
{
	return t.n && (cm_is_digit(t.p[0]) || t.p[0] == '-' || t.p[0] == '+' || t.p[0] == '.');
}

/* "PATH" or "PATH:SECONDS": what follows the last ':' is the period when
 * it looks like a number, and must then be one (1 to 86400 whole
 * seconds), so a path may hold ':' elsewhere but never ends up with a
 * mistyped period in its name (issue 36: ':1e3', ':-1', ':5:5'). */
static const char *cm_set_metrics(cm_config *cfg, cm_slice v)
{
	const char *colon, *why;
	unsigned period = CM_METRICS_PERIOD_DEFAULT;
	cm_slice path = v, tail;

	if ((colon = cm_last_colon(v, &tail)) && cm_numeric_looking(tail)) {
		uint64_t sec;

		if (cm_parse_u64(tail, &sec))
			return "SECONDS must be a whole number of seconds";
		if (sec == 0 || sec > 86400)
			return "SECONDS out of range";
		period = (unsigned)sec;
		path = cm_trim(cm_slice_of(v.p, (size_t)(colon - v.p)));
		if (cm_last_colon(path, &tail) && cm_numeric_looking(tail))
			return "more than one ':SECONDS'";
	}
	why = cm_copy_path(path, cfg->metrics_path);
	if (why)
		return why;
	cfg->metrics_period = period;
	return NULL;
}

/* One item of the list; lim is the devices' limits being set. */
static const char *cm_limit_item(void *limits, cm_slice item)
{
	size_t *lim = limits;
	const char *colon = memchr(item.p, ':', item.n), *why;
	uint64_t dev, mib;
	size_t bytes;

	if (!colon)
		return "list item without ':'";
	why = cm_parse_u64(cm_trim(cm_slice_of(item.p, (size_t)(colon - item.p))), &dev);
	if (why)
		return "a device must be a number";
	if (dev >= CM_LIMIT_DEVICES)
		return "device index too large";
	why = cm_parse_mib(cm_trim(cm_slice_of(colon + 1, item.n - (size_t)(colon - item.p) - 1)),
			   &mib, &bytes);
	if (why)
		return why;
	if (mib == 0)
		return "a limit of 0 MiB";
	if (lim[dev])
		return "a device listed twice";
	lim[dev] = bytes;
	return NULL;
}

/* "MIB" for every device, or "[DEV:MIB,...]" for some (others: none). */
static const char *cm_set_memory_limit(cm_config *cfg, cm_slice v)
{
	size_t lim[CM_LIMIT_DEVICES] = {0}, bytes;
	uint64_t mib;
	const char *why;

	if (v.p[0] != '[') {
		why = cm_parse_mib(v, &mib, &bytes);
		if (why)
			return why;
		if (mib == 0)
			return "a limit of 0 MiB";
		memset(cfg->memory_limit_dev, 0, sizeof cfg->memory_limit_dev);
		cfg->memory_limit = bytes;
		return NULL;
	}
	if (v.p[v.n - 1] != ']')
		return "missing ']'";
	why = cm_list_items(v, cm_limit_item, lim);
	if (why)
		return why;
	memcpy(cfg->memory_limit_dev, lim, sizeof lim);
	cfg->memory_limit = SIZE_MAX;
	return NULL;
}

CM_CHOICE_SETTER(cm_set_log_level, log_level, cm_log_level, "unknown level",
		 { "quiet", CM_LOG_QUIET }, { "errors", CM_LOG_ERRORS },
		 { "warnings", CM_LOG_WARNINGS }, { "info", CM_LOG_INFO })

static const char *cm_set_snapshot_stacks(cm_config *cfg, cm_slice v)
{
	return cm_parse_bool(v, &cfg->snapshot_stacks);
}

static const char *cm_set_exit_summary(cm_config *cfg, cm_slice v)
{
	return cm_parse_bool(v, &cfg->exit_summary);
}

/* ---- sharing a device (core/share.c) ---- */

static const char *cm_set_share(cm_config *cfg, cm_slice v)
{
	if (cm_eq_nocase(v, "on") || cm_eq_nocase(v, "off")) {
		cfg->share = cm_eq_nocase(v, "on");
		return NULL;
	}
	return cm_parse_bool(v, &cfg->share);
}

/* An integer in [0, max]. */
static const char *cm_parse_bounded(cm_slice v, uint64_t max, unsigned *out)
{
	uint64_t n;
	const char *why = cm_parse_u64(v, &n);
	if (why)
		return why;
	if (n > max)
		return "too large";
	*out = (unsigned)n;
	return NULL;
}

static const char *cm_set_share_wait(cm_config *cfg, cm_slice v)
{
	return cm_parse_bounded(v, 600000, &cfg->share_wait_ms);
}

static const char *cm_set_idle_release(cm_config *cfg, cm_slice v)
{
	return cm_parse_bounded(v, 86400 * 365, &cfg->idle_release_s);
}

static const cm_option cm_options[] = {
	{ "max_split_size_mb", "MiB", "unlimited",
	  "an integer number of MiB, 20 or more",
	  "cached blocks larger than this are never split (limits fragmentation; "
	  "none above 20 while the process is near what it can have)",
	  cm_set_max_split },
	{ "max_non_split_rounding_mb", "MiB", "20",
	  "an integer number of MiB, 0 or more",
	  "a free block of max_split_size_mb or more serves a request only when it "
	  "is less than this larger (PyTorch's meaning)",
	  cm_set_non_split_rounding },
	{ "roundup_power2_divisions", "list", "0 (off)",
	  "a power of two, or a list like [256:1,512:2,>:8] with power-of-two "
	  "MiB sizes (or '>' for all larger) and divisions that are powers of "
	  "two or 0",
	  "round requests up to one of N steps between powers of two, per "
	  "power-of-two size interval from 1 MiB",
	  cm_set_roundup },
	{ "garbage_collection_threshold", "decimal", "0 (off)",
	  "a decimal number strictly between 0.0 and 1.0",
	  "above this fraction of the memory limit, free the cached blocks "
	  "unused the longest",
	  cm_set_gc_threshold },
	{ "expandable_segments", "bool", "false",
	  "true or false (also True, False, 1, 0)",
	  "grow one virtual range per size class (small, large), shared by all "
	  "streams, instead of allocating new segments",
	  cm_set_expandable },
	{ "release_threshold_mb", "MiB", "unlimited (keep all)",
	  "an integer number of MiB, 0 or more",
	  "idle cached memory above this is given back to the device",
	  cm_set_release_threshold },
	{ "max_pending_mb", "MiB", "auto",
	  "auto, or an integer number of MiB, 0 or more",
	  "new memory taken while freed blocks still await their proof, before "
	  "the cache orders them for reuse (or waits for them); per device, and "
	  "for pinned host memory; auto: 1/4 of the device memory the program "
	  "holds, at least 4 and at most 256 MiB (pinned: 256); 0: at once; "
	  "none while the device is short of memory",
	  cm_set_max_pending },
	{ "per_process_memory_fraction", "decimal", "1.0",
	  "a decimal number above 0.0 and at most 1.0",
	  "cap on this process's reserved memory, as a fraction of the device",
	  cm_set_fraction },
	{ "free_fence", "enum", "gpu", "gpu, host or none",
	  "how reuse of freed memory is ordered against work on other streams",
	  cm_set_free_fence },
	{ "stats", "enum", "off", "off, exit or exit-json:PATH",
	  "at exit, print statistics on stderr (exit) or write JSON to PATH "
	  "(%p, %h, %r expanded: pid, host, rank)",
	  cm_set_stats },
	{ "oom_snapshot", "path", "none",
	  "a file path of 1 to 4095 bytes (%p, %h, %r expanded)",
	  "on out of memory, write a memory_viz snapshot (pickle) to this path",
	  cm_set_oom_snapshot },
	{ "report_signal", "enum", "none",
	  "none, SIGUSR1 or SIGUSR2",
	  "on this signal, print the statistics on stderr (and write the "
	  "oom_snapshot file, if set)",
	  cm_set_report_signal },
	{ "memgetinfo_counts_cache", "bool", "true",
	  "true or false (also True, False, 1, 0)",
	  "cudaMemGetInfo reports memory idle in the cache as free",
	  cm_set_memgetinfo },
	{ "track_submissions", "bool", "true",
	  "true or false (also True, False, 1, 0)",
	  "learn which streams ran work from the driver's submission calls, so "
	  "that idle streams cost nothing (false: ask every stream)",
	  cm_set_track_submissions },
	{ "nvtx_memory", "enum", "auto", "auto, on or off",
	  "tell an attached tool (compute-sanitizer) which blocks the program "
	  "holds, through NVTX's memory API; auto: when NVTX_INJECTION64_PATH "
	  "names a tool",
	  cm_set_nvtx_memory },
	{ "memory_limit_mb", "MiB", "unlimited",
	  "an integer number of MiB above 0, or a list like [0:4096,1:8192] of "
	  "device:MiB (devices not listed: no limit)",
	  "cap on what the cache reserves per device, and the total "
	  "cudaMemGetInfo reports (as HAMi-core's CUDA_DEVICE_MEMORY_LIMIT)",
	  cm_set_memory_limit },
	{ "log", "path", "none", "a file path of 1 to 4095 bytes (%p, %h, %r expanded)",
	  "write every allocation and free to PATH as RMM's event log (CSV)",
	  cm_set_log },
	{ "metrics", "path", "none",
	  "PATH or PATH:SECONDS (1 to 86400, default 10; %p, %h, %r expanded)",
	  "write the statistics as a Prometheus textfile every SECONDS and at exit",
	  cm_set_metrics },
	{ "snapshot_stacks", "bool", "false",
	  "true or false (also True, False, 1, 0)",
	  "record each block's call stack (glibc backtrace) for oom_snapshot",
	  cm_set_snapshot_stacks },
	{ "exit_summary", "bool", "false",
	  "true or false (also True, False, 1, 0)",
	  "at exit, one line on stderr: allocations served, cache hits, device "
	  "allocations, peak reserved",
	  cm_set_exit_summary },
	{ "log_level", "enum", "warnings", "quiet, errors, warnings or info",
	  "the library's messages on stderr: none, failures (out of memory), also "
	  "bad settings and fallbacks, also a line when the cache starts; reports "
	  "asked for (stats, exit_summary) print at every level",
	  cm_set_log_level },
	/* pinned host memory */
	{ "pinned_max_cached_mb", "MiB", "auto (1/8 of RAM)",
	  "an integer number of MiB, 0 or more, or auto",
	  "pinned host memory cached and not held by the program stays below "
	  "this; the oldest is given back first (0: cache none)",
	  cm_set_pinned_max_cached },
	{ "pinned_use_cuda_host_register", "bool", "false",
	  "true or false (also True, False, 1, 0)",
	  "make pinned host blocks with malloc and cudaHostRegister instead of "
	  "cudaHostAlloc (not for write-combined requests)",
	  cm_set_pinned_register },
	/* sharing a device (core/share.c) */
	{ "share", "bool", "on",
	  "on or off (also true, false, 1, 0)",
	  "publish this process's use of each device in a per-user registry, "
	  "give idle cached memory to neighbours that run out, and ask them for "
	  "theirs (off: no registry file, no thread)",
	  cm_set_share },
	{ "share_wait_ms", "ms", "1000",
	  "an integer number of milliseconds, 0 to 600000",
	  "after its own release, how long a failed request waits for the "
	  "memory neighbours give back (0: ask, but do not wait)",
	  cm_set_share_wait },
	{ "idle_release_s", "seconds", "0 (never)",
	  "an integer number of seconds, 0 or more",
	  "give idle cached memory back to the device after this many seconds "
	  "without an allocation (needs share)",
	  cm_set_idle_release },
};

#define CM_NOPTIONS (sizeof cm_options / sizeof cm_options[0])

/* PyTorch's own PYTORCH_CUDA_ALLOC_CONF keys that are not options here
 * (c10/core/AllocatorConfig.cpp, c10/cuda/CUDAAllocatorConfig.cpp): each
 * is named as PyTorch's, with its equivalent or why it does not apply, in
 * one line instead of the whole list of keys. */
static const struct {
	const char *name;
	const char *answer;
} cm_pytorch_keys[] = {
	{ "backend", "does not apply: cachemalloc is the allocator (run PyTorch with "
	  "PYTORCH_NO_CUDA_MEMORY_CACHING=1, and its cudaMalloc calls come here)" },
	{ "release_lock_on_cudamalloc", "does not apply: it is about PyTorch's own "
	  "allocator lock around cudaMalloc; cachemalloc has no such switch" },
	{ "release_lock_on_hipmalloc", "does not apply: HIP, and PyTorch's own "
	  "allocator lock; cachemalloc has no such switch" },
	{ "pinned_use_hip_host_register", "equivalent: pinned_use_cuda_host_register" },
	{ "pinned_num_register_threads", "no equivalent: with "
	  "pinned_use_cuda_host_register:true the thread that asks registers its block" },
	{ "pinned_use_background_threads", "no equivalent: cachemalloc has no background "
	  "thread for pinned memory; a freed block is reused once its copies are complete" },
	{ "pinned_reserve_segment_size_mb", "no equivalent: pinned blocks are cached one "
	  "by one, bounded by pinned_max_cached_mb" },
	{ "graph_capture_record_stream_reuse", "does not apply: a block freed during a "
	  "graph capture is never reused (kept out of the cache)" },
};

static const char cm_sim_accepted[] =
	"a byte count above 0 with an optional K, M, G or T suffix (powers of 1024)";

/* ---- reporting ---- */

typedef struct cm_report {
	FILE *err;
	const char *var;
	int bad;
	bool seen[CM_NOPTIONS]; /* key applied earlier in this string */
} cm_report;

/* Counts a bad entry and starts its line; false when it is not printed. */
static bool cm_report_begin(cm_report *r)
{
	r->bad++;
	if (!r->err || r->bad > CM_MAX_REPORTED)
		return false;
	fprintf(r->err, "cachemalloc: %s: ", r->var);
	return true;
}

static void cm_report_end(cm_report *r)
{
	if (r->err && r->bad > CM_MAX_REPORTED)
		fprintf(r->err, "cachemalloc: %s: %d more bad entries not shown\n",
			r->var, r->bad - CM_MAX_REPORTED);
}

/* Quotes a value, escaping what is not printable ASCII so that one bad
 * entry stays one readable line, and cutting it short. */
static void cm_quote(FILE *out, cm_slice s)
{
	size_t n = s.n < CM_QUOTE_MAX ? s.n : CM_QUOTE_MAX;

	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	fputc('"', out);
	if (s.n > CM_QUOTE_MAX)
		fprintf(out, "... (%zu bytes)", s.n);
}

static void cm_print_keys(FILE *out)
{
	for (size_t i = 0; i < CM_NOPTIONS; i++)
		fprintf(out, "%s%s", i ? ", " : "", cm_options[i].name);
}

static void cm_report_unknown(cm_report *r, cm_slice key, cm_slice value)
{
	if (!cm_report_begin(r))
		return;
	for (size_t i = 0; i < sizeof cm_pytorch_keys / sizeof cm_pytorch_keys[0]; i++) {
		if (!cm_eq(key, cm_pytorch_keys[i].name))
			continue;
		fprintf(r->err, "PyTorch's key %s (value ", cm_pytorch_keys[i].name);
		cm_quote(r->err, value);
		fprintf(r->err, ") ignored: %s; accepted: the keys cachemalloc options lists\n",
			cm_pytorch_keys[i].answer);
		return;
	}
	if (key.n == 0) {
		fputs("empty key", r->err);
	} else {
		fputs("unknown key ", r->err);
		cm_quote(r->err, key);
	}
	fputs(" (value ", r->err);
	cm_quote(r->err, value);
	fputs("); accepted keys: ", r->err);
	cm_print_keys(r->err);
	fputc('\n', r->err);
}

static void cm_report_shape(cm_report *r, cm_slice entry, size_t offset)
{
	if (!cm_report_begin(r))
		return;
	if (entry.n == 0) {
		fprintf(r->err, "empty entry at byte %zu", offset);
	} else {
		fputs("entry ", r->err);
		cm_quote(r->err, entry);
		fputs(" has no ':'", r->err);
	}
	fputs("; accepted: key:value entries separated by single commas, keys: ",
	      r->err);
	cm_print_keys(r->err);
	fputc('\n', r->err);
}

static void cm_report_value(cm_report *r, size_t opt, cm_slice value,
			    const char *why)
{
	if (!cm_report_begin(r))
		return;
	fprintf(r->err, "%s:", cm_options[opt].name);
	cm_quote(r->err, value);
	fprintf(r->err, " is not valid (%s); accepted: %s; %s\n", why,
		cm_options[opt].accepted,
		r->seen[opt] ? "keeping the earlier value" : "using the default");
}

/* ---- splitting CACHEMALLOC_CONF ---- */

static bool cm_is_key_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A '[' that is never closed (end of text, or another '[' first): end the
 * entry at the first comma that is followed by something that can start a
 * key, since list items start with a digit or '>'. This keeps the entries
 * after a missing ']' alive. */
static size_t cm_unclosed_end(const char *s, size_t len, size_t open)
{
	for (size_t i = open + 1; i < len; i++) {
		size_t j = i + 1;

		if (s[i] != ',')
			continue;
		while (j < len && cm_is_space(s[j]))
			j++;
		if (j < len && cm_is_key_start(s[j]))
			return i;
	}
	return len;
}

/* Returns where the entry that starts at pos ends (its comma, or len). */
static size_t cm_entry_end(const char *s, size_t len, size_t pos)
{
	size_t i = pos, j;

	while (i < len && s[i] != ',' && s[i] != ':')
		i++;
	if (i == len || s[i] == ',')
		return i;
	for (j = i + 1; j < len && cm_is_space(s[j]); j++)
		;
	if (j < len && s[j] == '[') {
		for (i = j + 1; i < len && s[i] != ']' && s[i] != '['; i++)
			;
		if (i == len || s[i] == '[')
			return cm_unclosed_end(s, len, j);
	}
	while (i < len && s[i] != ',')
		i++;
	return i;
}

static size_t cm_find_option(cm_slice key)
{
	for (size_t i = 0; i < CM_NOPTIONS; i++)
		if (cm_eq(key, cm_options[i].name))
			return i;
	return CM_NOPTIONS;
}

static void cm_apply_entry(cm_config *cfg, cm_report *r, cm_slice entry,
			   size_t offset)
{
	const char *colon, *why;
	cm_slice key, value;
	size_t opt;

	entry = cm_trim(entry);
	colon = entry.n ? memchr(entry.p, ':', entry.n) : NULL;
	if (!colon) {
		cm_report_shape(r, entry, offset);
		return;
	}
	key = cm_trim(cm_slice_of(entry.p, (size_t)(colon - entry.p)));
	value = cm_trim(cm_slice_of(colon + 1,
				    entry.n - (size_t)(colon - entry.p) - 1));
	opt = cm_find_option(key);
	if (opt == CM_NOPTIONS) {
		cm_report_unknown(r, key, value);
		return;
	}
	why = value.n ? cm_options[opt].set(cfg, value) : "empty value";
	if (why)
		cm_report_value(r, opt, value, why);
	else
		r->seen[opt] = true;
}

/* ---- public ---- */

void cm_config_defaults(cm_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->max_split_size = SIZE_MAX;
	cfg->max_non_split_rounding = CM_NON_SPLIT_ROUNDING_DEFAULT;
	cfg->garbage_collection_threshold = 0.0;
	cfg->expandable_segments = false;
	cfg->release_threshold = SIZE_MAX;
	cfg->max_pending = CM_PENDING_AUTO;
	cfg->per_process_memory_fraction = 1.0;
	cfg->free_fence = CM_FENCE_GPU;
	cfg->stats = CM_STATS_OFF;
	cfg->memgetinfo_counts_cache = true;
	cfg->track_submissions = true;
	cfg->nvtx_memory = CM_NVTX_AUTO;
	cfg->nvtx_injection = false;
	cfg->sim_memory = CM_SIM_DEFAULT;
	cfg->metrics_period = CM_METRICS_PERIOD_DEFAULT;
	cfg->memory_limit = SIZE_MAX;
	cfg->pinned_max_cached = CM_PINNED_AUTO;
	cfg->pinned_use_cuda_host_register = false;
	cfg->log_level = CM_LOG_WARNINGS;
	cfg->share = true;
	cfg->share_wait_ms = CM_SHARE_WAIT_MS_DEFAULT;
	cfg->idle_release_s = 0;
}

FILE *cm_log_stream(const cm_config *cfg, cm_log_level level)
{
	return level != CM_LOG_QUIET && cfg->log_level >= level ? stderr : NULL;
}

void cm_log(const cm_config *cfg, cm_log_level level, const char *fmt, ...)
{
	FILE *out = cm_log_stream(cfg, level);
	va_list ap;

	if (!out)
		return;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

size_t cm_config_memory_limit(const cm_config *cfg, int dev)
{
	if (dev >= 0 && dev < CM_LIMIT_DEVICES && cfg->memory_limit_dev[dev])
		return cfg->memory_limit_dev[dev];
	return cfg->memory_limit;
}

int cm_config_parse(cm_config *cfg, const char *text, FILE *err)
{
	cm_report r = { .err = err, .var = CM_CONF_VAR };
	size_t len, pos = 0;

	if (!text)
		return 0;
	len = strlen(text);
	/* Set but blank means "no settings", not one empty entry. */
	if (cm_trim(cm_slice_of(text, len)).n == 0)
		return 0;
	for (;;) {
		size_t end = cm_entry_end(text, len, pos);

		cm_apply_entry(cfg, &r, cm_slice_of(text + pos, end - pos), pos);
		if (end >= len)
			break;
		pos = end + 1;
	}
	cm_report_end(&r);
	return r.bad;
}

bool cm_config_parse_size(const char *text, size_t *out)
{
	return text && cm_size_parse(cm_slice_of(text, strlen(text)), out) == NULL;
}

int cm_config_parse_sim_memory(cm_config *cfg, const char *text, FILE *err)
{
	cm_slice s;
	size_t size = 0;
	const char *why;

	if (!text)
		return 0;
	s = cm_trim(cm_slice_of(text, strlen(text)));
	if (s.n == 0)
		return 0;
	why = cm_size_parse(s, &size);
	if (!why && size == 0)
		why = "zero";
	if (!why) {
		cfg->sim_memory = size;
		return 0;
	}
	if (err) {
		fputs("cachemalloc: " CM_SIM_VAR ": ", err);
		cm_quote(err, s);
		fprintf(err, " is not valid (%s); accepted: %s; using the default 16G\n",
			why, cm_sim_accepted);
	}
	return 1;
}

void cm_config_print_options(FILE *out)
{
	fputs("CACHEMALLOC_CONF=\"key:value,key:value\" keys:\n", out);
	for (size_t i = 0; i < CM_NOPTIONS; i++) {
		const cm_option *o = &cm_options[i];

		fprintf(out, "  %s (%s, default: %s)\n      %s\n      accepted: %s\n",
			o->name, o->type, o->default_text, o->description,
			o->accepted);
	}
	fprintf(out, CM_SIM_VAR " (size, default: 16G)\n"
		"      device memory of the simulated device\n"
		"      accepted: %s\n", cm_sim_accepted);
}
