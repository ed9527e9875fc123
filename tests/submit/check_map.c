/* tests/submit/check_map.c - the generated version script
 * interpose/cachemalloc.map exports every generated wrapper (the names of
 * interpose/submit_hooks.map) and nothing else of submit_hooks.c.
 *     check_map MODULE SUBMIT_HOOKS_MAP
 * docs/design.md, "Seeing every submission". */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: check_map MODULE MAP\n");
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	FILE *f = fopen(argv[2], "r");
	if (!h || !f) {
		fprintf(stderr, "check_map: cannot open %s or %s: %s\n", argv[1], argv[2],
			h ? "" : dlerror());
		return 1;
	}
	char line[256], name[256];
	int n = 0, bad = 0;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, " %255[A-Za-z0-9_];", name) != 1 || !strchr(line, ';'))
			continue;
		n++;
		if (!dlsym(h, name)) {
			fprintf(stderr, "check_map: %s is in the map but not exported\n", name);
			bad++;
		}
	}
	const char *hidden[] = { "cm_submit_table", "cm_submit_count", "cm_lib_submit",
				 "cm_drv_resolve", "cm_real" };
	for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
		if (dlsym(h, hidden[i])) {
			fprintf(stderr, "check_map: %s is exported\n", hidden[i]);
			bad++;
		}
	if (n < 100) {
		fprintf(stderr, "check_map: only %d names in %s\n", n, argv[2]);
		bad++;
	}
	if (!bad)
		printf("check_map: %d wrappers exported\n", n);
	return bad ? 1 : 0;
}
