/* staticroof trace runtime: the counters an instrumented kernel calls (see instrument.py).
 * Compiled with the instrumented kernel and a generated driver; prints what ran at exit. */
#ifndef STATICROOF_TRACE_RUNTIME_H
#define STATICROOF_TRACE_RUNTIME_H


void __sr_flop(int precision, long n);           /* precision: 0 fp64, 1 fp32, 2 fp16, -1 none */
void __sr_special(int site, int precision);      /* one call of a special function */
/* kind 0 read, 1 write; `base` is the pointer the access indexes (`a` in `a[i]`), or 0 when the
 * instrumentation cannot name it without evaluating something twice */
void *__sr_access(void *p, unsigned long size, int kind, long group, long token, void *base);
long __sr_next(void);                            /* a fresh statement/loop instance id */
/* bytes 0: the array is a pointer parameter, its extent the region __sr_region gave it */
void __sr_register(const char *name, void *base, unsigned long elem, unsigned long bytes, int fill);
void __sr_report(void);

/* driver.c: each pointer parameter's own region (see there), and the command-line sizes */
void *__sr_region(void);
int __sr_region_of(const void *p, char **lo, char **hi, int *guard);
long __sr_arg(char **argv, int k);
/* the kernel's own allocations (`malloc` and friends are these in the generated source): each a
 * region like a parameter's; a freed one is reused, as an allocator would */
void *__sr_malloc(unsigned long bytes);
void *__sr_calloc(unsigned long n, unsigned long size);
void *__sr_realloc(void *p, unsigned long bytes);
void *__sr_aligned_alloc(unsigned long align, unsigned long bytes);
int __sr_posix_memalign(void **p, unsigned long align, unsigned long bytes);
void *__sr_alloca(unsigned long bytes);
void __sr_free(void *p);
void *__sr_vla(int site);                        /* a variable-length local array's region */
const char *__sr_array_name(const void *base); /* runtime.c: the array registered at `base` */
void __sr_retire(const void *base);              /* runtime.c: its memory was freed */
/* a clear error (the message names the array and index), then exit: never a silent miscount */
void __sr_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* the precision of an expression's type, decided by the C compiler (independent of staticroof) */
#define __SR_PREC(v) _Generic((v), double: 0, long double: 0, float: 1, _Float16: 2, default: -1)
#define __SR_FILL(v) _Generic((v), double: 1, long double: 1, float: 2, _Float16: 3, default: 0)
#endif
