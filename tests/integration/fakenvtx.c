/* tests/integration/fakenvtx.c - a fake NVTX tool (libfakenvtx.so) that
 * writes the memory API calls it receives to a file.
 *
 * NVTX (the header-only v3 compiled into libcachemalloc.so) loads a tool
 * from NVTX_INJECTION64_PATH, as compute-sanitizer has it loaded: it
 * calls the tool's InitializeInjectionNvtx2 with its export table (the
 * core functions: here only nvtxDomainCreateA is taken) and, at the first
 * call of an extension, InitializeInjectionNvtxExtension with the
 * extension's function slots (here the memory API's). Without that
 * variable NVTX also finds a tool already loaded in the process through
 * the *Preinject names, which the test uses to check that the library
 * calls no NVTX function at all when nvtx_memory is auto and no tool is
 * named.
 *
 * NVTX v3 does not look for a tool already loaded (its load sequence 2
 * leaves the *Preinject names off on Linux): only the variable names one.
 * So that a test can see whether the library made any NVTX call when no
 * tool is named, the fake, preloaded, also interposes getenv and logs
 * each lookup of NVTX_INJECTION64_PATH: NVTX does one at its first call
 * (the library's own configuration reads it with secure_getenv).
 *
 * Each call is one line, written with one write(2) in O_APPEND mode so
 * that the program under test can read the file at any point:
 *   domain NAME
 *   heap_register HANDLE BASE SIZE USAGE TYPE
 *   heap_unregister HANDLE
 *   region_register HANDLE PTR SIZE
 *   region_unregister PTR
 *   getenv NVTX_INJECTION64_PATH
 * with numbers in hexadecimal (0x...). A heap's handle is a number of the
 * tool's own, not its address, so that a region filed under the wrong
 * heap shows. The file is FAKENVTX_LOG (read with secure_getenv).
 */
#define NVTX_NO_IMPL
#define NVTX_AS_SYSTEM_HEADER
#include <nvtx3/nvToolsExtMem.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FK_EXPORT __attribute__((visibility("default")))

static int fk_fd = -1;
static atomic_uintptr_t fk_next_heap = 0x1000;

static void fk_log(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (fk_fd >= 0 && n > 0 && (size_t)n < sizeof line) {
		ssize_t w = write(fk_fd, line, (size_t)n);
		(void)w;
	}
}

static void fk_open(void)
{
	const char *path = secure_getenv("FAKENVTX_LOG");
	if (fk_fd < 0 && path)
		fk_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

static nvtxDomainHandle_t NVTX_API fk_domain_create_a(const char *name)
{
	fk_log("domain %s\n", name);
	return (nvtxDomainHandle_t)(uintptr_t)0xd0;
}

static nvtxMemHeapHandle_t NVTX_API fk_heap_register(nvtxDomainHandle_t d,
						      nvtxMemHeapDesc_t const *desc)
{
	(void)d;
	const nvtxMemVirtualRangeDesc_t *r = desc->typeSpecificDesc;
	uintptr_t h = atomic_fetch_add(&fk_next_heap, 1);
	fk_log("heap_register 0x%lx 0x%lx 0x%lx 0x%x 0x%x\n", (unsigned long)h,
	       (unsigned long)(uintptr_t)r->ptr, (unsigned long)r->size, desc->usage, desc->type);
	return (nvtxMemHeapHandle_t)h;
}

static void NVTX_API fk_heap_unregister(nvtxDomainHandle_t d, nvtxMemHeapHandle_t h)
{
	(void)d;
	fk_log("heap_unregister 0x%lx\n", (unsigned long)(uintptr_t)h);
}

static void NVTX_API fk_regions_register(nvtxDomainHandle_t d,
					 nvtxMemRegionsRegisterBatch_t const *b)
{
	(void)d;
	const nvtxMemVirtualRangeDesc_t *r = b->regionDescElements;
	for (size_t i = 0; i < b->regionCount; i++)
		fk_log("region_register 0x%lx 0x%lx 0x%lx\n", (unsigned long)(uintptr_t)b->heap,
		       (unsigned long)(uintptr_t)r[i].ptr, (unsigned long)r[i].size);
}

static void NVTX_API fk_regions_unregister(nvtxDomainHandle_t d,
					   nvtxMemRegionsUnregisterBatch_t const *b)
{
	(void)d;
	for (size_t i = 0; i < b->refCount; i++)
		fk_log("region_unregister 0x%lx\n",
		       (unsigned long)(uintptr_t)b->refElements[i].pointer);
}

/* The core: NVTX hands its table of function slots per module. */
FK_EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
	fk_open();
	const NvtxExportTableCallbacks *cb = get(NVTX_ETID_CALLBACKS);
	NvtxFunctionTable table = NULL;
	unsigned size = 0;
	if (!cb || !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) ||
	    size <= NVTX_CBID_CORE2_DomainCreateA)
		return 0;
	*table[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)fk_domain_create_a;
	return 1;
}

/* An extension: the memory API's slots are indexed by its callback ids. */
FK_EXPORT int NVTX_API InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info)
{
	fk_open();
	if (info->moduleId != NVTX_EXT_MODULEID_MEM || info->segmentsCount < 1)
		return 1; /* not ours: its slots become no-ops */
	nvtxExtModuleSegment_t *seg = &info->segments[0];
	if (seg->slotCount <= NVTX3EXT_CBID_nvtxMemRegionsUnregister)
		return 0;
	intptr_t *slot = seg->functionSlots;
	slot[NVTX3EXT_CBID_nvtxMemHeapRegister] = (intptr_t)fk_heap_register;
	slot[NVTX3EXT_CBID_nvtxMemHeapUnregister] = (intptr_t)fk_heap_unregister;
	slot[NVTX3EXT_CBID_nvtxMemRegionsRegister] = (intptr_t)fk_regions_register;
	slot[NVTX3EXT_CBID_nvtxMemRegionsUnregister] = (intptr_t)fk_regions_unregister;
	return 1;
}

extern char **environ;

/* Preloaded: every getenv of the process, libc's answer, and a line for
 * NVTX's lookup of its tool. */
FK_EXPORT char *getenv(const char *name)
{
	size_t n = strlen(name);
	char *value = NULL;
	for (char **e = environ; e && *e && !value; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			value = *e + n + 1;
	if (strcmp(name, "NVTX_INJECTION64_PATH") == 0) {
		fk_open();
		fk_log("getenv %s\n", name);
	}
	return value;
}
