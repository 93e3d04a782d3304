/* staticroof trace driver helpers: command-line sizes, each array's own region, clear failures.
 *
 * Every pointer parameter gets a region of its own: 2*HALF bytes of lazily backed memory with the
 * pointer in the middle (so negative indices work), between two inaccessible guard zones as large
 * as the region.  HALF (32 GiB) exceeds any byte offset an `int` subscript can form on elements
 * of up to 16 bytes, so no index the kernel computes at any sizes -- whatever constants or macros
 * scale it -- can run past its region into another array's; an access that still leaves it is an
 * error naming the array and index (runtime.c checks every instrumented access, the guard zones
 * fault on any other).  Only the pages a kernel touches cost memory, so a region needs no size
 * derived from the kernel: deriving one would be a second static analysis the oracle must not
 * depend on. */
#define _GNU_SOURCE
#include "runtime.h"
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_REGIONS 256

typedef struct { char *start, *lo, *hi, *end; } region_t;  /* reservation [start, end), usable [lo, hi) */
static region_t regions[MAX_REGIONS];
static int n_regions;
static size_t half = (size_t)1 << 35;

long __sr_arg(char **argv, int k) { return atol(argv[k]); }

void __sr_fail(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "staticroof-trace-error: %s\n", msg);
    fflush(stderr);
    _exit(70);
}

void *__sr_region(void) {
    if (n_regions == MAX_REGIONS) __sr_fail("more than %d arrays", MAX_REGIONS);
    for (;;) {
        size_t total = 4 * half;
        char *p = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            if (mprotect(p + half, 2 * half, PROT_READ | PROT_WRITE) == 0) {
                region_t *r = &regions[n_regions++];
                r->start = p; r->lo = p + half; r->hi = p + 3 * half; r->end = p + total;
                return p + 2 * half;
            }
            munmap(p, total);
        }
        /* a smaller address space (or strict overcommit): smaller regions, still checked */
        if (half <= ((size_t)1 << 24)) __sr_fail("cannot reserve address space for the kernel's arrays");
        half >>= 1;
    }
}

/* Allocations: a region each (their extent never limits an index); freed ones are reused last in,
 * first out, as a real allocator hands back the block just freed. */
static char *freed[MAX_REGIONS];
static int n_freed;

static int is_region(const void *p) {
    for (int k = 0; k < n_regions; k++)
        if ((const char *)p == regions[k].lo + (regions[k].hi - regions[k].lo) / 2) return 1;
    return 0;
}

void *__sr_malloc(unsigned long bytes) {
    (void)bytes;
    if (n_freed) {
        char *p = freed[--n_freed];
        return p;
    }
    return __sr_region();
}

void *__sr_calloc(unsigned long n, unsigned long size) { return __sr_malloc(n * size); }
void *__sr_aligned_alloc(unsigned long align, unsigned long bytes) { (void)align; return __sr_malloc(bytes); }
void *__sr_alloca(unsigned long bytes) { return __sr_malloc(bytes); }

void *__sr_realloc(void *p, unsigned long bytes) {
    if (p && is_region(p)) return p;  /* already as large as any index can reach */
    return __sr_malloc(bytes);
}

int __sr_posix_memalign(void **p, unsigned long align, unsigned long bytes) {
    (void)align;
    *p = __sr_malloc(bytes);
    return 0;
}

void __sr_free(void *p) {
    if (!p || !is_region(p)) return;
    __sr_retire(p);  /* a use after free is an error, never booked to the next owner */
    if (n_freed < MAX_REGIONS) freed[n_freed++] = p;
}

void *__sr_vla(int site) {
    static char *sites[4096];
    if (site < 0 || site >= 4096) __sr_fail("too many variable-length arrays");
    if (!sites[site]) sites[site] = __sr_region();
    return sites[site];
}

/* The region whose reservation holds `p` (1-based; 0 if none); its usable bounds and whether `p`
 * lies in a guard zone. */
int __sr_region_of(const void *p, char **lo, char **hi, int *guard) {
    const char *c = p;
    for (int k = 0; k < n_regions; k++) {
        region_t *r = &regions[k];
        if (c < r->start || c >= r->end) continue;
        if (lo) *lo = r->lo;
        if (hi) *hi = r->hi;
        if (guard) *guard = c < r->lo || c >= r->hi;
        return k + 1;
    }
    return 0;
}

/* A fault: in a guard zone it is an access the instrumentation did not see (a library call writing
 * past an array); anywhere else the kernel itself crashed. */
static void on_fault(int sig, siginfo_t *info, void *ctx) {
    (void)ctx;
    char *lo, *hi;
    int guard;
    void *addr = info->si_addr;
    if (__sr_region_of(addr, &lo, &hi, &guard) && guard) {
        const char *name = __sr_array_name(lo + (hi - lo) / 2);
        long off = (long)((char *)addr - (lo + (hi - lo) / 2));
        __sr_fail("the kernel touched byte %ld of `%s`, outside the %ld bytes either side of the pointer "
                  "that any index can reach", off, name ? name : "?", (long)((hi - lo) / 2));
    }
    if (sig == SIGFPE) __sr_fail("the kernel crashed (an arithmetic exception: an integer division by zero?)");
    __sr_fail("the kernel crashed (%s at address %p)", sig == SIGBUS ? "bus error" : "segmentation fault", addr);
}

__attribute__((constructor)) static void install_fault_handler(void) {
    static char stack[1 << 16];
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
    sigaltstack(&ss, NULL);  /* a stack overflow still reports */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
}
