/* tests/test_config.c - unit tests for config/: defaults, every key's good
 * values, roundup_power2_divisions against PyTorch's semantics, every
 * class of bad input, size parsing, the environment and the secure path.
 *
 * Error output is captured with open_memstream; every bad-input test checks
 * the number of lines, that each starts with "cachemalloc: ", names the key
 * and the value and says what is accepted, and that the good entries in the
 * same string still took effect.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cachemalloc.h" /* cm_size_divisions: the lookup the lists feed */
#include "config.h"

#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)
/* config.c prints this many bad-entry lines per string, then a summary. */
#define MAX_REPORTED 32

typedef struct parsed {
	cm_config cfg;
	int bad;
	int lines;
	char *out;
} parsed;

static int count_lines(const char *s)
{
	int n = 0;

	for (const char *line = s; *line; n++) {
		const char *nl = strchr(line, '\n');

		assert_non_null(nl); /* every line is complete */
		assert_int_equal(strncmp(line, "cachemalloc: ", 13), 0);
		for (const char *c = line; c < nl; c++)
			assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
		line = nl + 1;
	}
	return n;
}

/* Parses text on top of defaults (or of p->cfg when keep is set). */
static void parse_into(parsed *p, const char *text, bool keep)
{
	size_t len = 0;
	FILE *f;

	if (!keep)
		cm_config_defaults(&p->cfg);
	p->out = NULL;
	f = open_memstream(&p->out, &len);
	assert_non_null(f);
	p->bad = cm_config_parse(&p->cfg, text, f);
	assert_int_equal(fclose(f), 0);
	p->lines = count_lines(p->out);
}

static parsed *parse(const char *text)
{
	parsed *p = calloc(1, sizeof *p);

	assert_non_null(p);
	parse_into(p, text, false);
	return p;
}

static void done(parsed *p)
{
	free(p->out);
	free(p);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("\"%s\" not found in:\n%s", needle, hay);
}

static void assert_clean(parsed *p)
{
	if (p->bad != 0 || p->lines != 0)
		fail_msg("unexpected errors (%d):\n%s", p->bad, p->out);
}

/* One bad entry: one line naming the key and the value, with "accepted". */
static parsed *parse_one_bad(const char *text, const char *key, const char *value)
{
	parsed *p = parse(text);

	if (p->bad != 1 || p->lines != 1)
		fail_msg("\"%s\": %d bad, %d lines:\n%s", text, p->bad, p->lines,
			 p->out);
	assert_contains(p->out, "cachemalloc: CACHEMALLOC_CONF: ");
	assert_contains(p->out, key);
	assert_contains(p->out, value);
	assert_contains(p->out, "accepted");
	return p;
}

/* Checks a bad value between two good entries (of other keys): one error,
 * both good entries applied, everything else still the default. */
static void check_bad_value(const char *key, const char *value)
{
	bool mem = strcmp(key, "memgetinfo_counts_cache") == 0;
	char text[512], quoted[300];
	cm_config def;
	parsed *p;

	snprintf(text, sizeof text, "%s,%s:%s,oom_snapshot:/tmp/t",
		 mem ? "expandable_segments:true" : "memgetinfo_counts_cache:false",
		 key, value);
	snprintf(quoted, sizeof quoted, "%s:\"%s\"", key, value);
	p = parse_one_bad(text, key, quoted);
	assert_contains(p->out, "using the default");
	cm_config_defaults(&def);
	if (mem)
		def.expandable_segments = true;
	else
		def.memgetinfo_counts_cache = false;
	strcpy(def.oom_snapshot, "/tmp/t");
	assert_memory_equal(&p->cfg, &def, sizeof def);
	done(p);
}

/* ---- defaults ---- */

static void test_defaults(void **state)
{
	cm_config c;

	(void)state;
	memset(&c, 0xab, sizeof c);
	cm_config_defaults(&c);
	assert_true(c.max_split_size == SIZE_MAX);
	assert_true(c.max_non_split_rounding == 20 * MiB);
	for (int i = 0; i < CM_ROUNDUP_INTERVALS; i++)
		assert_int_equal(c.roundup_divisions[i], 0);
	assert_true(c.garbage_collection_threshold == 0.0);
	assert_false(c.expandable_segments);
	assert_true(c.release_threshold == SIZE_MAX);
	assert_true(c.per_process_memory_fraction == 1.0);
	assert_int_equal(c.free_fence, CM_FENCE_GPU);
	assert_int_equal(c.stats, CM_STATS_OFF);
	assert_string_equal(c.oom_snapshot, "");
	assert_true(c.memgetinfo_counts_cache);
	assert_true(c.sim_memory == 16 * GiB);
	assert_int_equal(cm_size_divisions(&c, 300 * MiB), 0);
}

/* The two places defaults live agree: each default the option table prints
 * (--help), applied on top of cm_config_defaults, changes nothing. A text
 * that is a description rather than a value ("unlimited", "none" for a
 * path) is checked against the field it names, in the table below; any
 * other text must parse. */
static const struct {
	const char *key, *text;
} default_words[] = {
	{ "max_split_size_mb", "unlimited" },
	{ "roundup_power2_divisions", "0" },
	{ "release_threshold_mb", "unlimited" },
	{ "garbage_collection_threshold", "0" },
	{ "oom_snapshot", "none" },
	{ "memory_limit_mb", "unlimited" },
	{ "log", "none" },
	{ "metrics", "none" },
};

static bool default_word_holds(const char *key, const cm_config *c)
{
	if (!strcmp(key, "max_split_size_mb"))
		return c->max_split_size == SIZE_MAX;
	if (!strcmp(key, "roundup_power2_divisions")) {
		for (int i = 0; i < CM_ROUNDUP_INTERVALS; i++)
			if (c->roundup_divisions[i] > 1)
				return false;
		return true;
	}
	if (!strcmp(key, "release_threshold_mb"))
		return c->release_threshold == SIZE_MAX;
	if (!strcmp(key, "garbage_collection_threshold"))
		return c->garbage_collection_threshold == 0.0;
	if (!strcmp(key, "oom_snapshot"))
		return c->oom_snapshot[0] == '\0';
	if (!strcmp(key, "memory_limit_mb"))
		return cm_config_memory_limit(c, 0) == SIZE_MAX && cm_config_memory_limit(c, 63) == SIZE_MAX;
	if (!strcmp(key, "log"))
		return c->log_path[0] == '\0';
	if (!strcmp(key, "metrics"))
		return c->metrics_path[0] == '\0';
	return false;
}

static void test_defaults_match_table(void **state)
{
	char *out = NULL, *line, *save = NULL;
	size_t len = 0;
	int options = 0;
	cm_config defaults, c;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(f);
	cm_config_print_options(f);
	fclose(f);
	cm_config_defaults(&defaults);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[64], text[128], entry[256];
		const char *at = strstr(line, ", default: ");
		size_t n;

		if (strncmp(line, "  ", 2) != 0 || line[2] == ' ' || !at)
			continue; /* a description or accepted-values line */
		assert_int_equal(sscanf(line, " %63s", key), 1);
		/* The text, less the closing ")" and a " (explanation)". */
		snprintf(text, sizeof text, "%s", at + strlen(", default: "));
		n = strlen(text);
		assert_true(n > 0 && text[n - 1] == ')');
		text[--n] = '\0';
		char *paren = strstr(text, " (");
		if (paren)
			*paren = '\0';
		options++;
		bool listed = false;
		for (size_t i = 0; i < sizeof default_words / sizeof default_words[0]; i++)
			listed |= !strcmp(default_words[i].key, key) && !strcmp(default_words[i].text, text);
		if (listed) {
			if (!default_word_holds(key, &defaults))
				fail_msg("%s: cm_config_defaults does not hold \"%s\"", key, text);
			continue;
		}
		c = defaults;
		snprintf(entry, sizeof entry, "%s:%s", key, text);
		if (cm_config_parse(&c, entry, NULL) != 0)
			fail_msg("%s: the printed default \"%s\" is no value; list it in default_words", key, text);
		if (memcmp(&c, &defaults, sizeof c) != 0)
			fail_msg("%s: the printed default \"%s\" is not cm_config_defaults'", key, text);
	}
	assert_true(options >= 12);
	c = defaults;
	assert_int_equal(cm_config_parse_sim_memory(&c, "16G", NULL), 0); /* its printed default */
	assert_memory_equal(&c, &defaults, sizeof c);
	free(out);
}

static void test_null_and_blank(void **state)
{
	const char *texts[] = { NULL, "", "   ", " \t " };

	(void)state;
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		parsed *p = parse(texts[i]);
		cm_config def;

		assert_clean(p);
		cm_config_defaults(&def);
		assert_memory_equal(&p->cfg, &def, sizeof def);
		done(p);
	}
	/* A NULL err stream is allowed: nothing printed, still counted. */
	{
		cm_config c;

		cm_config_defaults(&c);
		assert_int_equal(cm_config_parse(&c, "foo:1,max_split_size_mb:64", NULL), 1);
		assert_true(c.max_split_size == 64 * MiB);
	}
}

/* ---- good values ---- */

static void test_max_split_good(void **state)
{
	parsed *p;

	(void)state;
	p = parse("max_split_size_mb:20");
	assert_clean(p);
	assert_true(p->cfg.max_split_size == 20 * MiB);
	done(p);
	p = parse("  max_split_size_mb : 512  ");
	assert_clean(p);
	assert_true(p->cfg.max_split_size == 512 * MiB);
	done(p);
	/* The largest MiB count whose byte count fits in size_t. */
	p = parse("max_split_size_mb:17592186044415");
	assert_clean(p);
	assert_true(p->cfg.max_split_size == (size_t)17592186044415u * MiB);
	done(p);
}

static void test_other_keys_good(void **state)
{
	parsed *p;

	(void)state;
	p = parse("garbage_collection_threshold:0.6,expandable_segments:True,"
		  "release_threshold_mb:1024,per_process_memory_fraction:0.75,"
		  "free_fence:none,stats:exit,oom_snapshot:/tmp/oom.pickle,"
		  "memgetinfo_counts_cache:false");
	assert_clean(p);
	assert_true(p->cfg.garbage_collection_threshold == 0.6);
	assert_true(p->cfg.expandable_segments);
	assert_true(p->cfg.release_threshold == 1024 * MiB);
	assert_true(p->cfg.per_process_memory_fraction == 0.75);
	assert_int_equal(p->cfg.free_fence, CM_FENCE_NONE);
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT);
	assert_string_equal(p->cfg.oom_snapshot, "/tmp/oom.pickle");
	assert_false(p->cfg.memgetinfo_counts_cache);
	done(p);

	p = parse("garbage_collection_threshold:.25,release_threshold_mb:0,"
		  "per_process_memory_fraction:1,free_fence:host,"
		  "stats:exit-json:/tmp/stats.json");
	assert_clean(p);
	assert_true(p->cfg.garbage_collection_threshold == 0.25);
	assert_true(p->cfg.release_threshold == 0);
	assert_true(p->cfg.per_process_memory_fraction == 1.0);
	assert_int_equal(p->cfg.free_fence, CM_FENCE_HOST);
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT_JSON);
	assert_string_equal(p->cfg.stats_path, "/tmp/stats.json");
	done(p);

	p = parse("garbage_collection_threshold:0.999999,per_process_memory_fraction:1.0,"
		  "free_fence:gpu,stats:off");
	assert_clean(p);
	assert_true(p->cfg.garbage_collection_threshold == 0.999999);
	assert_true(p->cfg.per_process_memory_fraction == 1.0);
	assert_int_equal(p->cfg.free_fence, CM_FENCE_GPU);
	assert_int_equal(p->cfg.stats, CM_STATS_OFF);
	done(p);
}

/* Sharing a device (core/share.c): share is on/off or a bool; the
 * waits are bounded integers. */
static void test_share_keys(void **state)
{
	parsed *p;

	(void)state;
	p = parse("share:off,share_wait_ms:250,idle_release_s:30");
	assert_clean(p);
	assert_false(p->cfg.share);
	assert_int_equal(p->cfg.share_wait_ms, 250);
	assert_int_equal(p->cfg.idle_release_s, 30);
	done(p);
	p = parse("share:ON,share_wait_ms:0");
	assert_clean(p);
	assert_true(p->cfg.share);
	assert_int_equal(p->cfg.share_wait_ms, 0);
	done(p);
	done(parse_one_bad("share:maybe", "share", "maybe"));
	done(parse_one_bad("share_wait_ms:-5", "share_wait_ms", "-5"));
	done(parse_one_bad("share_wait_ms:600001", "share_wait_ms", "600001"));
	done(parse_one_bad("idle_release_s:x", "idle_release_s", "x"));
}

static void test_bools(void **state)
{
	const char *yes[] = { "true", "True", "TRUE", "1" };
	const char *no[] = { "false", "False", "fAlSe", "0" };
	char text[128];

	(void)state;
	for (int i = 0; i < 4; i++) {
		parsed *p;

		snprintf(text, sizeof text,
			 "expandable_segments:%s,memgetinfo_counts_cache:%s", yes[i], no[i]);
		p = parse(text);
		assert_clean(p);
		assert_true(p->cfg.expandable_segments);
		assert_false(p->cfg.memgetinfo_counts_cache);
		done(p);
	}
}

static void test_last_entry_wins(void **state)
{
	parsed *p;

	(void)state;
	p = parse("max_split_size_mb:100,max_split_size_mb:200");
	assert_clean(p);
	assert_true(p->cfg.max_split_size == 200 * MiB);
	done(p);
	/* A bad repeat keeps the earlier good value, and says so. */
	p = parse_one_bad("max_split_size_mb:100,max_split_size_mb:x",
			  "max_split_size_mb", "\"x\"");
	assert_contains(p->out, "keeping the earlier value");
	assert_true(p->cfg.max_split_size == 100 * MiB);
	done(p);
}

/* ---- roundup_power2_divisions, as PyTorch (c10/core/AllocatorConfig.cpp) */

static void assert_divisions(const cm_config *c, const unsigned want[CM_ROUNDUP_INTERVALS])
{
	for (int i = 0; i < CM_ROUNDUP_INTERVALS; i++)
		if (c->roundup_divisions[i] != want[i])
			fail_msg("interval %d: %u, want %u", i, c->roundup_divisions[i],
				 want[i]);
}

static void test_roundup_single(void **state)
{
	parsed *p;

	(void)state;
	p = parse("roundup_power2_divisions:4");
	assert_clean(p);
	for (int i = 0; i < CM_ROUNDUP_INTERVALS; i++)
		assert_int_equal(p->cfg.roundup_divisions[i], 4);
	assert_int_equal(cm_size_divisions(&p->cfg, 1), 4);
	assert_int_equal(cm_size_divisions(&p->cfg, SIZE_MAX), 4);
	done(p);
	p = parse("roundup_power2_divisions:1");
	assert_clean(p);
	assert_int_equal(cm_size_divisions(&p->cfg, 5 * GiB), 1);
	done(p);
}

static void test_roundup_list_example(void **state)
{
	/* [256:1,512:2,>:8]: 256 -> interval 8, and being first it also fills
	 * 0..7; 512 -> interval 9; '>' fills 10..15 (after the last key). */
	const unsigned want[CM_ROUNDUP_INTERVALS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1,
						      2, 8, 8, 8, 8, 8, 8 };
	parsed *p;

	(void)state;
	p = parse("roundup_power2_divisions:[256:1,512:2,>:8],max_split_size_mb:100");
	assert_clean(p);
	assert_divisions(&p->cfg, want);
	assert_int_equal(cm_size_divisions(&p->cfg, 1 * MiB), 1);
	assert_int_equal(cm_size_divisions(&p->cfg, 256 * MiB), 1);
	assert_int_equal(cm_size_divisions(&p->cfg, 300 * MiB), 1);
	assert_int_equal(cm_size_divisions(&p->cfg, 512 * MiB), 2);
	assert_int_equal(cm_size_divisions(&p->cfg, 1023 * MiB), 2);
	assert_int_equal(cm_size_divisions(&p->cfg, 1 * GiB), 8);
	assert_int_equal(cm_size_divisions(&p->cfg, 4 * GiB), 8);
	assert_int_equal(cm_size_divisions(&p->cfg, 4096), 1); /* below 1 MiB */
	assert_int_equal(cm_size_divisions(&p->cfg, 0), 1);
	/* The comma inside [...] did not end the entry. */
	assert_true(p->cfg.max_split_size == 100 * MiB);
	done(p);
}

static void test_roundup_list_forms(void **state)
{
	const unsigned one_four[CM_ROUNDUP_INTERVALS] = { 4, 8, 8, 8, 8, 8, 8, 8,
							  8, 8, 8, 8, 8, 8, 8, 8 };
	/* PyTorch's documented example: intervals between keys (7, 9) keep
	 * their previous value, here 0. */
	const unsigned doc[CM_ROUNDUP_INTERVALS] = { 8, 8, 8, 8, 8, 8, 8, 0, 4,
						     0, 4, 1, 1, 1, 1, 1 };
	const unsigned rest_only[CM_ROUNDUP_INTERVALS] = { 0, 8, 8, 8, 8, 8, 8, 8,
							   8, 8, 8, 8, 8, 8, 8, 8 };
	const unsigned clamped[CM_ROUNDUP_INTERVALS] = { 2, 2, 2, 2, 2, 2, 2, 2,
							 2, 2, 2, 2, 2, 2, 2, 2 };
	const unsigned stacked[CM_ROUNDUP_INTERVALS] = { 1, 1, 1, 1, 1, 1, 1, 1,
							 1, 4, 4, 4, 4, 4, 4, 4 };
	parsed *p;

	(void)state;
	p = parse("roundup_power2_divisions:[1:4,>:8]");
	assert_clean(p);
	assert_divisions(&p->cfg, one_four);
	assert_int_equal(cm_size_divisions(&p->cfg, 1 * MiB + 1), 4);
	assert_int_equal(cm_size_divisions(&p->cfg, 2 * MiB), 8);
	assert_int_equal(cm_size_divisions(&p->cfg, 100 * GiB), 8);
	done(p);

	p = parse("roundup_power2_divisions: [ 64:8, 256:4, 1024:4, >:1 ] ");
	assert_clean(p);
	assert_divisions(&p->cfg, doc);
	assert_int_equal(cm_size_divisions(&p->cfg, 128 * MiB), 0);
	done(p);

	p = parse("roundup_power2_divisions:[>:8]");
	assert_clean(p);
	assert_divisions(&p->cfg, rest_only);
	done(p);

	/* 65536 MiB is interval 16, clamped to the last one (15). */
	p = parse("roundup_power2_divisions:[65536:2]");
	assert_clean(p);
	assert_divisions(&p->cfg, clamped);
	done(p);

	/* 0 disables rounding for an interval; allowed in the list form. */
	p = parse("roundup_power2_divisions:[2:0,>:4]");
	assert_clean(p);
	assert_int_equal(cm_size_divisions(&p->cfg, 1 * MiB), 0);
	assert_int_equal(cm_size_divisions(&p->cfg, 2 * MiB), 0);
	assert_int_equal(cm_size_divisions(&p->cfg, 4 * MiB), 4);
	done(p);

	/* A list applies on top of the previous setting, as in PyTorch. */
	p = parse("roundup_power2_divisions:4,roundup_power2_divisions:[256:1]");
	assert_clean(p);
	assert_divisions(&p->cfg, stacked);
	done(p);
}

static void test_roundup_bad(void **state)
{
	static const struct {
		const char *value;
		const char *why;
	} bad[] = {
		{ "[256:1", "missing ']'" },
		{ "[256:1,]", "empty item" },
		{ "[,256:1]", "empty item" },
		{ "[256:1,,>:8]", "empty item" },
		{ "[]", "empty list" },
		{ "[3:1]", "powers of two" },
		{ "[0:1]", "powers of two" },
		{ "[256:3]", "power of two or 0" },
		{ "[256:x]", "not a number" },
		{ "[x:2]", "not a number" },
		{ "[256:1]x", "text after ']'" },
		{ "[256]", "without ':'" },
		{ "[:1]", "empty size" },
		{ "[256:]", "empty division" },
		{ "[>:1,>:2]", "'>' appears twice" },
		{ "[256:4294967296]", "too large" },
		{ "[99999999999999999999:1]", "too large" },
		{ "3", "power of two" },
		{ "0", "power of two" },
		{ "-4", "negative" },
		{ "4x", "trailing" },
		{ "4294967296", "too large" },
	};
	const unsigned twos[CM_ROUNDUP_INTERVALS] = { 2, 2, 2, 2, 2, 2, 2, 2,
						      2, 2, 2, 2, 2, 2, 2, 2 };

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[256], quoted[128];
		parsed *p;

		snprintf(text, sizeof text,
			 "roundup_power2_divisions:2,roundup_power2_divisions:%s,"
			 "max_split_size_mb:64", bad[i].value);
		snprintf(quoted, sizeof quoted, "roundup_power2_divisions:\"%s\"",
			 bad[i].value);
		p = parse_one_bad(text, "roundup_power2_divisions", quoted);
		assert_contains(p->out, bad[i].why);
		assert_contains(p->out, "keeping the earlier value");
		assert_divisions(&p->cfg, twos); /* unchanged */
		assert_true(p->cfg.max_split_size == 64 * MiB);
		done(p);
	}
}

static void test_roundup_unclosed_recovers(void **state)
{
	parsed *p;

	(void)state;
	/* A later list's '[' ends the search for ']'; the entry after the
	 * unclosed list still applies, and so does the later list. */
	p = parse_one_bad("roundup_power2_divisions:[256:1,512:2,max_split_size_mb:64,"
			  "roundup_power2_divisions:[1:4]",
			  "roundup_power2_divisions", "\"[256:1,512:2\"");
	assert_contains(p->out, "missing ']'");
	assert_true(p->cfg.max_split_size == 64 * MiB);
	assert_int_equal(cm_size_divisions(&p->cfg, 1 * MiB), 4);
	assert_int_equal(cm_size_divisions(&p->cfg, 4 * MiB), 0);
	done(p);
	/* Bracket characters in a path are not a list. */
	p = parse("oom_snapshot:/tmp/a[1,stats:exit");
	assert_clean(p);
	assert_string_equal(p->cfg.oom_snapshot, "/tmp/a[1");
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT);
	done(p);
}

/* ---- bad values, key by key ---- */

static void test_bad_numbers(void **state)
{
	(void)state;
	check_bad_value("max_split_size_mb", "abc");
	check_bad_value("max_split_size_mb", "12abc");
	check_bad_value("max_split_size_mb", "-5");
	check_bad_value("max_split_size_mb", "+5");
	check_bad_value("max_split_size_mb", "1 2");
	check_bad_value("max_split_size_mb", "19");
	check_bad_value("max_split_size_mb", "0");
	check_bad_value("max_split_size_mb", "1.5");
	check_bad_value("release_threshold_mb", "-1");
	check_bad_value("release_threshold_mb", "lots");
	check_bad_value("garbage_collection_threshold", "0");
	check_bad_value("garbage_collection_threshold", "0.0");
	check_bad_value("garbage_collection_threshold", "1");
	check_bad_value("garbage_collection_threshold", "1.0");
	check_bad_value("garbage_collection_threshold", "1.5");
	check_bad_value("garbage_collection_threshold", "-0.5");
	check_bad_value("garbage_collection_threshold", "abc");
	check_bad_value("garbage_collection_threshold", "0.5x");
	check_bad_value("garbage_collection_threshold", "nan");
	check_bad_value("garbage_collection_threshold", "inf");
	check_bad_value("garbage_collection_threshold", "5e-1");
	check_bad_value("garbage_collection_threshold", ".");
	check_bad_value("per_process_memory_fraction", "0");
	check_bad_value("per_process_memory_fraction", "1.01");
	check_bad_value("per_process_memory_fraction", "2");
	check_bad_value("per_process_memory_fraction", "half");
}

static void test_bad_words(void **state)
{
	(void)state;
	check_bad_value("expandable_segments", "yes");
	check_bad_value("expandable_segments", "2");
	check_bad_value("expandable_segments", "truee");
	check_bad_value("memgetinfo_counts_cache", "on");
	check_bad_value("free_fence", "cpu");
	check_bad_value("free_fence", "gpus");
	check_bad_value("stats", "json");
	check_bad_value("stats", "exit-json");
	check_bad_value("stats", "exit-json:");
	check_bad_value("stats", "exitt");
	check_bad_value("report_signal", "SIGKILL");
	check_bad_value("report_signal", "10");
	check_bad_value("nvtx_memory", "yes");
	check_bad_value("nvtx_memory", "");
}

static void test_report_signal(void **state)
{
	(void)state;
	cm_config cfg;
	cm_config_defaults(&cfg);
	assert_int_equal(cfg.report_signal, 0);
	assert_int_equal(cm_config_parse(&cfg, "report_signal:SIGUSR1", NULL), 0);
	assert_int_equal(cfg.report_signal, SIGUSR1);
	assert_int_equal(cm_config_parse(&cfg, "report_signal:usr2", NULL), 0);
	assert_int_equal(cfg.report_signal, SIGUSR2);
	assert_int_equal(cm_config_parse(&cfg, "report_signal:none", NULL), 0);
	assert_int_equal(cfg.report_signal, 0);
}

static void test_nvtx_memory(void **state)
{
	(void)state;
	cm_config cfg;
	cm_config_defaults(&cfg);
	assert_int_equal(cfg.nvtx_memory, CM_NVTX_AUTO);
	assert_false(cfg.nvtx_injection);
	assert_int_equal(cm_config_parse(&cfg, "nvtx_memory:off", NULL), 0);
	assert_int_equal(cfg.nvtx_memory, CM_NVTX_OFF);
	assert_int_equal(cm_config_parse(&cfg, "nvtx_memory:ON", NULL), 0);
	assert_int_equal(cfg.nvtx_memory, CM_NVTX_ON);
	assert_int_equal(cm_config_parse(&cfg, "nvtx_memory:auto", NULL), 0);
	assert_int_equal(cfg.nvtx_memory, CM_NVTX_AUTO);
	assert_int_equal(cm_config_parse(&cfg, "nvtx_memory:maybe", NULL), 1);
	assert_int_equal(cfg.nvtx_memory, CM_NVTX_AUTO); /* a bad value keeps the last */
}

static void test_out_of_range_message(void **state)
{
	parsed *p;

	(void)state;
	p = parse_one_bad("max_split_size_mb:19", "max_split_size_mb",
			  "max_split_size_mb:\"19\"");
	assert_contains(p->out, "accepted: an integer number of MiB, 20 or more");
	assert_contains(p->out, "using the default");
	done(p);
	p = parse_one_bad("garbage_collection_threshold:1.0",
			  "garbage_collection_threshold", "\"1.0\"");
	assert_contains(p->out, "out of range");
	assert_contains(p->out, "strictly between 0.0 and 1.0");
	done(p);
}

static void test_huge_numbers(void **state)
{
	char digits[2048];
	parsed *p;

	(void)state;
	check_bad_value("max_split_size_mb", "99999999999999999999");
	/* Fits in 64 bits as MiB, but not as bytes. */
	check_bad_value("max_split_size_mb", "17592186044416");
	check_bad_value("max_split_size_mb", "18446744073709551615");
	check_bad_value("release_threshold_mb", "99999999999999999999");
	check_bad_value("release_threshold_mb", "17592186044416");
	check_bad_value("per_process_memory_fraction", "99999999999999999999999");

	p = parse_one_bad("max_split_size_mb:99999999999999999999",
			  "max_split_size_mb", "\"99999999999999999999\"");
	assert_contains(p->out, "too large");
	assert_true(p->cfg.max_split_size == SIZE_MAX);
	done(p);

	/* 2047 digits: refused, and the echo is cut short. */
	memset(digits, '9', sizeof digits - 1);
	memcpy(digits, "max_split_size_mb:", 18);
	digits[sizeof digits - 1] = '\0';
	p = parse_one_bad(digits, "max_split_size_mb", "too large");
	assert_contains(p->out, "... (2029 bytes)");
	assert_true(strlen(p->out) < 400);
	done(p);
}

/* ---- shapes of the whole string ---- */

static void test_unknown_key(void **state)
{
	parsed *p;

	(void)state;
	p = parse_one_bad("expandable_segments:true,foo:1,max_split_size_mb:100",
			  "unknown key \"foo\"", "(value \"1\")");
	assert_contains(p->out, "accepted keys: max_split_size_mb, "
				"max_non_split_rounding_mb, roundup_power2_divisions, garbage_collection_threshold");
	assert_contains(p->out, "memgetinfo_counts_cache");
	assert_true(p->cfg.expandable_segments);
	assert_true(p->cfg.max_split_size == 100 * MiB);
	done(p);
	/* Keys are case-sensitive, as in PyTorch. */
	p = parse_one_bad("Max_Split_Size_MB:100", "unknown key \"Max_Split_Size_MB\"",
			  "\"100\"");
	assert_true(p->cfg.max_split_size == SIZE_MAX);
	done(p);
}

/* PyTorch's keys that are not options here: one line each, naming the key
 * as PyTorch's and saying its equivalent or why it does not apply, without
 * the list of every key. */
static void test_pytorch_keys(void **state)
{
	static const struct {
		const char *entry, *says;
	} cases[] = {
		{ "backend:cudaMallocAsync", "does not apply: cachemalloc is the allocator" },
		{ "release_lock_on_cudamalloc:True", "does not apply" },
		{ "release_lock_on_hipmalloc:True", "does not apply" },
		{ "pinned_use_hip_host_register:True", "equivalent: pinned_use_cuda_host_register" },
		{ "pinned_num_register_threads:8", "no equivalent" },
		{ "pinned_use_background_threads:True", "no equivalent" },
		{ "pinned_reserve_segment_size_mb:64", "no equivalent" },
		{ "graph_capture_record_stream_reuse:True", "does not apply" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[128], key[64];
		parsed *p;

		snprintf(text, sizeof text, "expandable_segments:true,%s", cases[i].entry);
		snprintf(key, sizeof key, "PyTorch's key %.*s (value \"",
			 (int)(strchr(cases[i].entry, ':') - cases[i].entry), cases[i].entry);
		p = parse_one_bad(text, key, cases[i].says);
		if (strstr(p->out, "unknown key") || strstr(p->out, "max_split_size_mb"))
			fail_msg("not one line of its own: %s", p->out);
		assert_true(p->cfg.expandable_segments);
		done(p);
	}
	/* A key neither has is still unknown, with the list. */
	parsed *p = parse_one_bad("backends:native", "unknown key \"backends\"", "\"native\"");
	assert_contains(p->out, "accepted keys: max_split_size_mb");
	done(p);
}

/* log_level: quiet, errors, warnings (default), info; cm_log_stream says
 * which messages reach stderr. */
static void test_log_level(void **state)
{
	static const struct {
		const char *value;
		cm_log_level level;
		bool errors, warnings, info;
	} cases[] = {
		{ "quiet", CM_LOG_QUIET, false, false, false },
		{ "errors", CM_LOG_ERRORS, true, false, false },
		{ "warnings", CM_LOG_WARNINGS, true, true, false },
		{ "INFO", CM_LOG_INFO, true, true, true },
	};
	cm_config def;
	parsed *p;

	(void)state;
	cm_config_defaults(&def);
	assert_int_equal(def.log_level, CM_LOG_WARNINGS);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[64];

		snprintf(text, sizeof text, "log_level:%s", cases[i].value);
		p = parse(text);
		assert_clean(p);
		assert_int_equal(p->cfg.log_level, cases[i].level);
		assert_true((cm_log_stream(&p->cfg, CM_LOG_ERRORS) == stderr) == cases[i].errors);
		assert_true((cm_log_stream(&p->cfg, CM_LOG_WARNINGS) == stderr) == cases[i].warnings);
		assert_true((cm_log_stream(&p->cfg, CM_LOG_INFO) == stderr) == cases[i].info);
		assert_null(cm_log_stream(&p->cfg, CM_LOG_QUIET));
		done(p);
	}
	check_bad_value("log_level", "debug");
	check_bad_value("log_level", "2");
}

/* max_non_split_rounding_mb: PyTorch's key, in MiB, default 20. */
static void test_non_split_rounding(void **state)
{
	parsed *p;

	(void)state;
	p = parse("max_non_split_rounding_mb:64");
	assert_clean(p);
	assert_true(p->cfg.max_non_split_rounding == 64 * MiB);
	done(p);
	p = parse("max_non_split_rounding_mb:0,max_split_size_mb:100");
	assert_clean(p);
	assert_true(p->cfg.max_non_split_rounding == 0 && p->cfg.max_split_size == 100 * MiB);
	done(p);
	check_bad_value("max_non_split_rounding_mb", "-1");
	check_bad_value("max_non_split_rounding_mb", "20.5");
	check_bad_value("max_non_split_rounding_mb", "99999999999999999999");
}

static void test_empty_entries(void **state)
{
	static const struct {
		const char *text;
		const char *says;
	} cases[] = {
		{ "expandable_segments:true,,max_split_size_mb:100", "empty entry" },
		{ ",expandable_segments:true,max_split_size_mb:100", "empty entry at byte 0" },
		{ "expandable_segments:true,max_split_size_mb:100,", "empty entry" },
		{ "expandable_segments:true, ,max_split_size_mb:100", "empty entry" },
		{ "expandable_segments:true,free_fence:,max_split_size_mb:100",
		  "free_fence:\"\" is not valid (empty value)" },
		{ "expandable_segments:true,:5,max_split_size_mb:100",
		  "empty key (value \"5\")" },
		{ "expandable_segments:true,free_fence,max_split_size_mb:100",
		  "entry \"free_fence\" has no ':'" },
		{ "expandable_segments:true, : ,max_split_size_mb:100", "empty key" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		parsed *p = parse(cases[i].text);

		if (p->bad != 1 || p->lines != 1)
			fail_msg("\"%s\": %d bad, %d lines:\n%s", cases[i].text, p->bad,
				 p->lines, p->out);
		assert_contains(p->out, cases[i].says);
		assert_contains(p->out, "accepted");
		assert_true(p->cfg.expandable_segments);
		assert_true(p->cfg.max_split_size == 100 * MiB);
		assert_int_equal(p->cfg.free_fence, CM_FENCE_GPU);
		done(p);
	}
	{
		parsed *p = parse(",,");

		assert_int_equal(p->bad, 3);
		assert_int_equal(p->lines, 3);
		done(p);
	}
}

static void test_several_bad_entries(void **state)
{
	parsed *p;

	(void)state;
	p = parse("foo:1,max_split_size_mb:abc,,expandable_segments:maybe,"
		  "garbage_collection_threshold:0.5,roundup_power2_divisions:[1:3],"
		  "stats:exit");
	assert_int_equal(p->bad, 5);
	assert_int_equal(p->lines, 5);
	assert_contains(p->out, "\"foo\"");
	assert_contains(p->out, "max_split_size_mb:\"abc\"");
	assert_contains(p->out, "empty entry");
	assert_contains(p->out, "expandable_segments:\"maybe\"");
	assert_contains(p->out, "roundup_power2_divisions:\"[1:3]\"");
	assert_true(p->cfg.garbage_collection_threshold == 0.5);
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT);
	done(p);
}

static void test_nonprintable(void **state)
{
	parsed *p;

	(void)state;
	p = parse_one_bad("free_fence:gp\x01u\x1b[31m,expandable_segments:1",
			  "free_fence", "\"gp\\x01u\\x1b[31m\"");
	assert_true(p->cfg.expandable_segments);
	done(p);
	/* A newline in a value stays inside the one line. */
	p = parse_one_bad("free_fence:a\nb\"c\\d\xff,expandable_segments:1",
			  "free_fence", "\"a\\x0ab\\\"c\\\\d\\xff\"");
	assert_true(p->cfg.expandable_segments);
	done(p);
	p = parse_one_bad("fo\to:1,expandable_segments:1", "unknown key \"fo\\x09o\"",
			  "\"1\"");
	done(p);
	/* Control characters are refused in paths. */
	p = parse_one_bad("oom_snapshot:/tmp/a\x07" "b", "oom_snapshot",
			  "\"/tmp/a\\x07b\"");
	assert_contains(p->out, "control character");
	assert_string_equal(p->cfg.oom_snapshot, "");
	done(p);
}

/* ---- long input ---- */

static char *repeat(const char *unit, size_t total)
{
	size_t n = strlen(unit);
	char *s = malloc(total + 1);

	assert_non_null(s);
	for (size_t i = 0; i < total; i++)
		s[i] = unit[i % n];
	s[total] = '\0';
	return s;
}

static void test_long_value_quoted_short(void **state)
{
	char value[1001], text[1100], want[96];
	parsed *p;

	(void)state;
	memset(value, 'a', 1000);
	value[1000] = '\0';
	snprintf(text, sizeof text, "free_fence:%s,expandable_segments:1", value);
	memset(want, 'a', 64);
	memcpy(want + 64, "\"... (1000 bytes)", 18);
	p = parse_one_bad(text, "free_fence", want);
	assert_true(strlen(p->out) < 400);
	memset(want, 'a', 65);
	want[65] = '\0';
	assert_null(strstr(p->out, want)); /* no more than 64 shown */
	assert_true(p->cfg.expandable_segments);
	done(p);
}

static void test_one_mib(void **state)
{
	const size_t mib = 1 << 20;
	char *text, *v;
	parsed *p;

	(void)state;
	/* A 1 MiB value: one short line, the rest still applies. */
	text = malloc(mib + 100);
	assert_non_null(text);
	v = repeat("/x", mib);
	snprintf(text, mib + 100, "oom_snapshot:%s,max_split_size_mb:64", v);
	p = parse_one_bad(text, "oom_snapshot", "path too long");
	assert_true(strlen(p->out) < 400);
	assert_true(p->cfg.max_split_size == 64 * MiB);
	assert_string_equal(p->cfg.oom_snapshot, "");
	done(p);
	free(v);

	/* 1 MiB of good entries. */
	v = repeat("expandable_segments:true,free_fence:host,", mib);
	*strrchr(v, ',') = '\0';
	snprintf(text, mib + 100, "%s", v);
	p = parse(text);
	assert_clean(p);
	assert_true(p->cfg.expandable_segments);
	assert_int_equal(p->cfg.free_fence, CM_FENCE_HOST);
	done(p);
	free(v);

	/* 1 MiB of commas: every empty entry counted, output bounded. */
	v = repeat(",", mib);
	p = parse(v);
	assert_int_equal(p->bad, (int)mib + 1);
	assert_int_equal(p->lines, MAX_REPORTED + 1);
	assert_contains(p->out, "more bad entries not shown");
	done(p);
	free(v);

	/* 1 MiB unclosed list: one error, linear time. */
	v = repeat("1:2,", mib);
	snprintf(text, mib + 100, "roundup_power2_divisions:[%s", v);
	p = parse_one_bad(text, "roundup_power2_divisions", "missing ']'");
	done(p);
	/* 1 MiB list that is closed but has a bad item at its end. */
	snprintf(text, mib + 100, "roundup_power2_divisions:[%sx:1]", v);
	p = parse_one_bad(text, "roundup_power2_divisions", "not a number");
	done(p);
	free(v);
	free(text);
}

static void test_paths(void **state)
{
	char path[CM_CONFIG_PATH_MAX + 1], text[CM_CONFIG_PATH_MAX + 64];
	parsed *p;

	(void)state;
	memset(path, 'p', CM_CONFIG_PATH_MAX - 1);
	path[0] = '/';
	path[CM_CONFIG_PATH_MAX - 1] = '\0';
	snprintf(text, sizeof text, "oom_snapshot:%s", path);
	p = parse(text);
	assert_clean(p);
	assert_int_equal(strlen(p->cfg.oom_snapshot), CM_CONFIG_PATH_MAX - 1);
	done(p);
	snprintf(text, sizeof text, "stats:exit-json:%s", path);
	p = parse(text);
	assert_clean(p);
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT_JSON);
	assert_int_equal(strlen(p->cfg.stats_path), CM_CONFIG_PATH_MAX - 1);
	done(p);

	path[CM_CONFIG_PATH_MAX - 1] = 'p';
	path[CM_CONFIG_PATH_MAX] = '\0';
	snprintf(text, sizeof text, "oom_snapshot:%s,stats:exit", path);
	p = parse_one_bad(text, "oom_snapshot", "path too long");
	assert_string_equal(p->cfg.oom_snapshot, "");
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT);
	done(p);
	snprintf(text, sizeof text, "stats:exit-json:%s", path);
	p = parse_one_bad(text, "stats", "path too long");
	assert_int_equal(p->cfg.stats, CM_STATS_OFF);
	done(p);
	/* A path may hold ':' (only the first one splits the entry). */
	p = parse("stats:exit-json: /tmp/a:b.json ,oom_snapshot:C:/x");
	assert_clean(p);
	assert_string_equal(p->cfg.stats_path, "/tmp/a:b.json");
	assert_string_equal(p->cfg.oom_snapshot, "C:/x");
	done(p);
}

/* ---- sizes ---- */

static void test_parse_size(void **state)
{
	static const struct {
		const char *text;
		size_t want;
	} good[] = {
		{ "0", 0 },
		{ "1", 1 },
		{ "4096", 4096 },
		{ "1K", 1024 },
		{ "3M", 3 * MiB },
		{ "16G", 16 * GiB },
		{ "4g", 4 * GiB },
		{ "2T", (size_t)2 << 40 },
		{ " 8G ", 8 * GiB },
		{ "16777215T", (size_t)16777215 << 40 },
		{ "18446744073709551615", SIZE_MAX },
	};
	static const char *bad[] = {
		"", "G", "1X", "1.5G", "-1", "1GB", "1 2", "abc", "0x10",
		"18446744073709551616", "16777216T", "17179869184G",
		"99999999999999999999999",
	};

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		size_t got = 12345;

		if (!cm_config_parse_size(good[i].text, &got))
			fail_msg("\"%s\" refused", good[i].text);
		assert_true(got == good[i].want);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t got = 12345;

		if (cm_config_parse_size(bad[i], &got))
			fail_msg("\"%s\" accepted", bad[i]);
		assert_true(got == 12345);
	}
	assert_false(cm_config_parse_size(NULL, &(size_t){ 0 }));
}

static int from_env(cm_config *c, const char *conf, const char *sim, bool secure,
		    char **out, int *lines)
{
	size_t len;
	FILE *f = open_memstream(out, &len);
	int bad;

	assert_non_null(f);
	memset(c, 0x5a, sizeof *c);
	bad = cm_config_from_env(c, conf, sim, secure, f);
	assert_int_equal(fclose(f), 0);
	*lines = count_lines(*out);
	return bad;
}

static void test_sim_memory(void **state)
{
	cm_config c;
	char *out;
	int lines;

	(void)state;
	assert_int_equal(from_env(&c, NULL, "8G", false, &out, &lines), 0);
	assert_int_equal(lines, 0);
	assert_true(c.sim_memory == 8 * GiB);
	free(out);

	assert_int_equal(from_env(&c, "expandable_segments:1", "0", false, &out, &lines), 1);
	assert_int_equal(lines, 1);
	assert_contains(out, "cachemalloc: CACHEMALLOC_SIM_MEMORY: \"0\"");
	assert_contains(out, "accepted");
	assert_true(c.sim_memory == 16 * GiB);
	assert_true(c.expandable_segments);
	free(out);

	assert_int_equal(from_env(&c, NULL, "12 parsecs", false, &out, &lines), 1);
	assert_int_equal(lines, 1);
	assert_contains(out, "\"12 parsecs\"");
	assert_true(c.sim_memory == 16 * GiB);
	free(out);

	assert_int_equal(from_env(&c, NULL, "99999999999T", false, &out, &lines), 1);
	assert_contains(out, "too large");
	free(out);
}

static void test_from_env(void **state)
{
	cm_config c, def;
	char *out;
	int lines;

	(void)state;
	cm_config_defaults(&def);
	assert_int_equal(from_env(&c, NULL, NULL, false, &out, &lines), 0);
	assert_int_equal(lines, 0);
	assert_memory_equal(&c, &def, sizeof c);
	free(out);

	assert_int_equal(from_env(&c, "max_split_size_mb:64,foo:1", "1G", false, &out,
				  &lines), 1);
	assert_int_equal(lines, 1);
	assert_true(c.max_split_size == 64 * MiB);
	assert_true(c.sim_memory == GiB);
	free(out);
}

static void test_secure(void **state)
{
	cm_config c, def;
	char *out;
	int lines;

	(void)state;
	cm_config_defaults(&def);
	assert_int_equal(from_env(&c, "max_split_size_mb:64,oom_snapshot:/etc/x",
				  "1G", true, &out, &lines), 0);
	assert_int_equal(lines, 1);
	assert_contains(out, "cachemalloc: ignoring CACHEMALLOC_CONF and "
			     "CACHEMALLOC_SIM_MEMORY");
	assert_contains(out, "AT_SECURE");
	assert_memory_equal(&c, &def, sizeof c);
	free(out);

	assert_int_equal(from_env(&c, "foo:bar,,", NULL, true, &out, &lines), 0);
	assert_int_equal(lines, 1);
	assert_contains(out, "ignoring CACHEMALLOC_CONF:");
	assert_null(strstr(out, "SIM_MEMORY"));
	assert_memory_equal(&c, &def, sizeof c);
	free(out);

	assert_int_equal(from_env(&c, NULL, "1G", true, &out, &lines), 0);
	assert_int_equal(lines, 1);
	assert_contains(out, "ignoring CACHEMALLOC_SIM_MEMORY:");
	free(out);

	assert_int_equal(from_env(&c, NULL, NULL, true, &out, &lines), 0);
	assert_int_equal(lines, 0);
	assert_memory_equal(&c, &def, sizeof c);
	free(out);
}

static void test_get(void **state)
{
	const cm_config *a, *b;

	(void)state;
	/* The only test that reads the process environment. */
	assert_int_equal(setenv("CACHEMALLOC_CONF", "max_split_size_mb:48,free_fence:none", 1), 0);
	assert_int_equal(setenv("CACHEMALLOC_SIM_MEMORY", "2G", 1), 0);
	a = cm_config_get();
	assert_int_equal(setenv("CACHEMALLOC_CONF", "max_split_size_mb:96", 1), 0);
	b = cm_config_get();
	assert_ptr_equal(a, b);
	assert_true(b->max_split_size == 48 * MiB); /* read once */
	assert_int_equal(b->free_fence, CM_FENCE_NONE);
	assert_true(b->sim_memory == 2 * GiB);
}

static void test_print_options(void **state)
{
	static const char *keys[] = {
		"max_split_size_mb", "roundup_power2_divisions",
		"garbage_collection_threshold", "expandable_segments",
		"release_threshold_mb", "per_process_memory_fraction", "free_fence",
		"stats", "oom_snapshot", "memgetinfo_counts_cache",
		"CACHEMALLOC_SIM_MEMORY",
	};
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(f);
	cm_config_print_options(f);
	assert_int_equal(fclose(f), 0);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		assert_contains(out, keys[i]);
	assert_contains(out, "accepted: gpu, host or none");
	assert_contains(out, "default: 16G");
	free(out);
}

/* ---- the user's tools: output paths, metrics, log, memory_limit_mb ---- */

static void test_path_expansion(void **state)
{
	cm_path_ids ids = { .pid = 4321, .host = "node7", .rank = "3" };
	char out[CM_CONFIG_PATH_MAX], big[CM_CONFIG_PATH_MAX];
	cm_config c;

	(void)state;
	assert_true(cm_config_expand_path("/tmp/s.%p.%h.%r.json", &ids, out));
	assert_string_equal(out, "/tmp/s.4321.node7.3.json");
	assert_true(cm_config_expand_path("100%%-%q-%", &ids, out));
	assert_string_equal(out, "100%-%q-%");
	/* Too long once expanded: refused, the output left off with one line. */
	memset(big, 'a', sizeof big - 10);
	strcpy(big + sizeof big - 10, "%h%h");
	assert_false(cm_config_expand_path(big, &ids, out));
	assert_string_equal(out, "");
	parsed *p = parse("stats:exit-json:/tmp/%p.json,oom_snapshot:/o/%r,log:/l/%h,"
			  "metrics:/m/%p.prom:5");
	assert_clean(p);
	c = p->cfg;
	cm_config_expand_paths(&c, &ids, NULL);
	assert_string_equal(c.stats_path, "/tmp/4321.json");
	assert_string_equal(c.oom_snapshot, "/o/3");
	assert_string_equal(c.log_path, "/l/node7");
	assert_string_equal(c.metrics_path, "/m/4321.prom");
	assert_int_equal(c.metrics_period, 5);
	assert_int_equal(c.stats, CM_STATS_EXIT_JSON);
	strcpy(c.stats_path, big);
	cm_config_expand_paths(&c, &ids, NULL);
	assert_int_equal(c.stats, CM_STATS_OFF);
	done(p);
}

static void test_rank(void **state)
{
	char rank[24];
	const char *none[4] = { NULL, NULL, NULL, NULL };
	const char *slurm[4] = { NULL, NULL, NULL, "12" };
	const char *first[4] = { "2", "5", NULL, "7" };
	const char *junk[4] = { "", "x1", "4", NULL };

	(void)state;
	cm_config_rank(none, rank);
	assert_string_equal(rank, "0");
	cm_config_rank(slurm, rank);
	assert_string_equal(rank, "12");
	cm_config_rank(first, rank);
	assert_string_equal(rank, "2");
	cm_config_rank(junk, rank);
	assert_string_equal(rank, "4");
}

static void test_metrics_and_log(void **state)
{
	parsed *p;

	(void)state;
	p = parse("metrics:/var/lib/node_exporter/cm.prom");
	assert_clean(p);
	assert_string_equal(p->cfg.metrics_path, "/var/lib/node_exporter/cm.prom");
	assert_int_equal(p->cfg.metrics_period, CM_METRICS_PERIOD_DEFAULT);
	done(p);
	p = parse("metrics:/a:b/c.prom:60,log:/tmp/rmm.csv");
	assert_clean(p);
	assert_string_equal(p->cfg.metrics_path, "/a:b/c.prom");
	assert_int_equal(p->cfg.metrics_period, 60);
	assert_string_equal(p->cfg.log_path, "/tmp/rmm.csv");
	done(p);
	p = parse_one_bad("metrics:/tmp/m.prom:0", "metrics", "SECONDS out of range");
	assert_string_equal(p->cfg.metrics_path, "");
	done(p);
	/* issue 36: a mistyped period is refused, never part of the name */
	p = parse_one_bad("metrics:m.prom:1e3", "metrics", "whole number of seconds");
	assert_string_equal(p->cfg.metrics_path, "");
	done(p);
	p = parse_one_bad("metrics:m.prom:-1", "metrics", "whole number of seconds");
	assert_string_equal(p->cfg.metrics_path, "");
	done(p);
	p = parse_one_bad("metrics:m.prom:5:5", "metrics", "more than one ':SECONDS'");
	assert_string_equal(p->cfg.metrics_path, "");
	done(p);
	p = parse("metrics:/a:b/c.prom");
	assert_clean(p);
	assert_string_equal(p->cfg.metrics_path, "/a:b/c.prom");
	assert_int_equal(p->cfg.metrics_period, CM_METRICS_PERIOD_DEFAULT);
	done(p);
	p = parse_one_bad("log:", "log", "empty value");
	done(p);
}

static void test_memory_limit(void **state)
{
	parsed *p;

	(void)state;
	p = parse("memory_limit_mb:4096");
	assert_clean(p);
	assert_true(cm_config_memory_limit(&p->cfg, 0) == 4096 * MiB);
	assert_true(cm_config_memory_limit(&p->cfg, 5) == 4096 * MiB);
	assert_true(cm_config_memory_limit(&p->cfg, 1000) == 4096 * MiB);
	done(p);
	p = parse("memory_limit_mb:[0:1024, 3:2048],stats:exit");
	assert_clean(p);
	assert_true(cm_config_memory_limit(&p->cfg, 0) == 1024 * MiB);
	assert_true(cm_config_memory_limit(&p->cfg, 1) == SIZE_MAX);
	assert_true(cm_config_memory_limit(&p->cfg, 3) == 2048 * MiB);
	assert_int_equal(p->cfg.stats, CM_STATS_EXIT);
	done(p);
	p = parse_one_bad("memory_limit_mb:[64:100]", "memory_limit_mb", "device index too large");
	assert_true(cm_config_memory_limit(&p->cfg, 0) == SIZE_MAX);
	done(p);
	p = parse_one_bad("memory_limit_mb:0", "memory_limit_mb", "a limit of 0 MiB");
	done(p);
	p = parse_one_bad("memory_limit_mb:[0:10,1]", "memory_limit_mb", "without ':'");
	assert_true(cm_config_memory_limit(&p->cfg, 0) == SIZE_MAX);
	done(p);
	/* issue 36: a device twice is refused, not the later entry taken */
	p = parse_one_bad("memory_limit_mb:[0:64,0:128]", "memory_limit_mb", "a device listed twice");
	assert_true(cm_config_memory_limit(&p->cfg, 0) == SIZE_MAX);
	done(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_defaults_match_table),
		cmocka_unit_test(test_null_and_blank),
		cmocka_unit_test(test_max_split_good),
		cmocka_unit_test(test_other_keys_good),
		cmocka_unit_test(test_share_keys),
		cmocka_unit_test(test_bools),
		cmocka_unit_test(test_last_entry_wins),
		cmocka_unit_test(test_roundup_single),
		cmocka_unit_test(test_roundup_list_example),
		cmocka_unit_test(test_roundup_list_forms),
		cmocka_unit_test(test_roundup_bad),
		cmocka_unit_test(test_roundup_unclosed_recovers),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_bad_words),
		cmocka_unit_test(test_report_signal),
		cmocka_unit_test(test_nvtx_memory),
		cmocka_unit_test(test_out_of_range_message),
		cmocka_unit_test(test_huge_numbers),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_pytorch_keys),
		cmocka_unit_test(test_non_split_rounding),
		cmocka_unit_test(test_log_level),
		cmocka_unit_test(test_empty_entries),
		cmocka_unit_test(test_several_bad_entries),
		cmocka_unit_test(test_nonprintable),
		cmocka_unit_test(test_long_value_quoted_short),
		cmocka_unit_test(test_one_mib),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_sim_memory),
		cmocka_unit_test(test_from_env),
		cmocka_unit_test(test_secure),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_print_options),
		cmocka_unit_test(test_path_expansion),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_metrics_and_log),
		cmocka_unit_test(test_memory_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
