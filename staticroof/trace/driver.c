/* staticroof trace driver helpers: argument parsing and zeroed, aligned buffers for the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

unsigned long __sr_array_bytes;

long __sr_arg(char **argv, int k) { return atol(argv[k]); }

/* zero-filled and lazily backed: a generous buffer costs only the pages the kernel touches */
void *__sr_alloc(unsigned long bytes) {
    void *p = mmap(NULL, bytes ? bytes : 64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { fprintf(stderr, "staticroof trace: cannot map %lu bytes\n", bytes); exit(3); }
    return p;
}
