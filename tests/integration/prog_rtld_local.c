/* prog_rtld_local: the CUDA runtime loaded privately.
 *
 * The program does not link the runtime; it dlopen()s libuser.so (argument
 * 1, default ./libuser.so), which does, with RTLD_LOCAL | RTLD_NOW, as
 * Python loads extension modules, and calls its allocation loop. An
 * interposer cannot find the runtime with dlsym(RTLD_NEXT) here.
 */
#include <dlfcn.h>
#include <stdio.h>
#include "../fnptr.h"

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "./libuser.so";
	void *h = dlopen(path, RTLD_LOCAL | RTLD_NOW);
	if (!h) {
		printf("FAIL %s:%d: dlopen(%s, RTLD_LOCAL | RTLD_NOW): expected a handle, got %s\n",
		       __FILE__, __LINE__, path, dlerror());
		return 1;
	}
	int (*run)(int) = (int (*)(int))fn_of(dlsym(h, "user_run"));
	if (!run) {
		printf("FAIL %s:%d: dlsym(user_run): expected the function, got %s\n", __FILE__,
		       __LINE__, dlerror());
		return 1;
	}
	int failures = run(2000);
	printf("rtld_local: %s (%d failure(s) in libuser)\n", failures ? "FAILED" : "ok",
	       failures);
	return failures ? 1 : 0;
}
