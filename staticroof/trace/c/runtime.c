/* staticroof trace runtime (see runtime.h).  An access belongs to the array its base pointer
 * points into (`a` in `a[i]`), and must land inside that array's extent, or the run stops with an
 * error naming the array and index: never booked to a neighbour, never lost.  Accesses that do not
 * go through a registered array (locals, the stack) are not DRAM. */
#include "runtime.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_ARRAYS 256
#define MAX_GROUPS 65536

/* state bits of an element: first access a read (1) or a write (2); written at least once (4) */
typedef struct {
    const char *name;
    char *base;             /* the pointer the kernel was given (index 0) */
    char *lo, *hi;          /* the extent accesses may touch: the region, or the array's own bytes */
    size_t elem;
    unsigned char *state;   /* per element of [lo, hi) */
    long loads, stores, first_read, n_written;
    long min_index, max_index;  /* the element indices reached, relative to base */
    int touched, fill, retired;
} array_t;

/* Large, lazily backed memory: only the pages a kernel touches cost anything. */
static void *lazy(size_t bytes) {
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) __sr_fail("cannot map %zu bytes of counters", bytes);
    return p;
}

static array_t arrays[MAX_ARRAYS];
static int n_arrays;
static long flops[3];
static long special_calls[4096][3];
static long group_last[MAX_GROUPS][2];
static long counter;

long __sr_next(void) { return ++counter; }

void __sr_flop(int precision, long n) {
    if (precision >= 0) flops[precision] += n;
}

void __sr_special(int site, int precision) {
    if (site < 0 || site >= 4096) __sr_fail("more than 4096 special-function call sites");
    if (precision >= 0) special_calls[site][precision] += 1;
}

static unsigned long rng = 88172645463325252UL;
static unsigned long next_random(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

void __sr_register(const char *name, void *base, unsigned long elem, unsigned long bytes, int fill) {
    for (int k = 0; k < n_arrays; k++) {
        if (arrays[k].base != (char *)base) continue;
        if (!strcmp(arrays[k].name, name)) {  /* the same variable allocated again in the same place */
            arrays[k].retired = 0;
            return;
        }
        arrays[k].retired = 1;  /* the place now holds another variable's array */
    }
    if (elem == 0) return;
    if (n_arrays == MAX_ARRAYS) __sr_fail("more than %d arrays", MAX_ARRAYS);
    array_t *a = &arrays[n_arrays++];
    a->name = name; a->base = base; a->elem = elem; a->fill = fill;
    if (bytes == 0) {  /* a pointer parameter: its whole region */
        int guard = 1;
        if (!__sr_region_of(base, &a->lo, &a->hi, &guard) || guard)
            __sr_fail("`%s` is not one of the arrays the trace allocated", name);
    } else {
        a->lo = base; a->hi = a->lo + bytes;
    }
    a->state = lazy((size_t)(a->hi - a->lo) / elem + 1);
}

void __sr_retire(const void *base) {
    for (int k = 0; k < n_arrays; k++)
        if (arrays[k].base == (const char *)base) arrays[k].retired = 1;
}

const char *__sr_array_name(const void *base) {
    for (int k = n_arrays - 1; k >= 0; k--)
        if (arrays[k].base == (const char *)base) return arrays[k].name;
    return 0;
}

static array_t *array_holding(const char *c, int one_past) {
    for (int k = n_arrays - 1; k >= 0; k--)
        if (!arrays[k].retired && c >= arrays[k].lo && c < arrays[k].hi) return &arrays[k];
    if (one_past)  /* a base one past the end (`a + n`), where no other array begins */
        for (int k = n_arrays - 1; k >= 0; k--)
            if (!arrays[k].retired && c == arrays[k].hi) return &arrays[k];
    return 0;
}

static long index_of(array_t *a, const char *c) {
    long off = (long)(c - a->base), e = (long)a->elem;
    return off >= 0 ? off / e : -((-off + e - 1) / e);
}

/* A random value, never zero, written into an element just before its first access (fill -1:
 * an initialized or const file-scope array, which keeps its values and may be read-only). */
static void fill_element(array_t *a, size_t e) {
    if (a->fill < 0) return;
    double r = 0.5 + (double)(next_random() % 1000003) / 1000003.0;
    char *p = a->lo + e * a->elem;
    if (a->fill == 1) *(double *)p = r;
    else if (a->fill == 2) *(float *)p = (float)r;
    else if (a->fill == 3) *(_Float16 *)p = (_Float16)r;
    else if (a->elem == 4) *(int *)p = 1 + (int)(next_random() % 7);
    else if (a->elem == 8) *(long *)p = 1 + (long)(next_random() % 7);
}

/* An optional fully associative LRU cache of STATICROOF_LRU_BYTES bytes over the registered
 * arrays' elements, in program order: loads on a read miss, write-allocate without a load, dirty
 * elements stored on eviction and at the end.  The bytes it moves are one real schedule's DRAM
 * traffic, which the cache-bounded lower bound Q(M) may never exceed. */
typedef struct node { unsigned long key; struct node *prev, *next, *chain; size_t bytes; int dirty; } node_t;
#define LRU_BUCKETS (1 << 20)
static long lru_capacity = -1;     /* -1: not read yet; 0: off */
static long lru_used, lru_moved;
static node_t *lru_head, *lru_tail, **lru_table;

static void lru_unlink(node_t *n) {
    if (n->prev) n->prev->next = n->next; else lru_head = n->next;
    if (n->next) n->next->prev = n->prev; else lru_tail = n->prev;
    n->prev = n->next = NULL;
}

static void lru_front(node_t *n) {
    n->next = lru_head; n->prev = NULL;
    if (lru_head) lru_head->prev = n; else lru_tail = n;
    lru_head = n;
}

static void lru_touch(int array, size_t element, size_t bytes, int write) {
    if (lru_capacity < 0) {
        const char *v = getenv("STATICROOF_LRU_BYTES");
        lru_capacity = v ? atol(v) : 0;
        if (lru_capacity > 0) lru_table = calloc(LRU_BUCKETS, sizeof(node_t *));
    }
    if (lru_capacity <= 0) return;
    unsigned long key = ((unsigned long)array << 48) | element;
    node_t **slot = &lru_table[(key * 11400714819323198485UL) >> 44];
    node_t *n = *slot;
    while (n && n->key != key) n = n->chain;
    if (n) { lru_unlink(n); lru_front(n); n->dirty |= write; return; }
    if (!write) lru_moved += bytes;  /* a read miss loads the element */
    n = calloc(1, sizeof(node_t));
    n->key = key; n->bytes = bytes; n->dirty = write; n->chain = *slot; *slot = n;
    lru_front(n);
    lru_used += bytes;
    while (lru_used > lru_capacity && lru_tail && lru_tail != n) {
        node_t *victim = lru_tail;
        lru_unlink(victim);
        lru_used -= victim->bytes;
        if (victim->dirty) lru_moved += victim->bytes;
        node_t **v = &lru_table[(victim->key * 11400714819323198485UL) >> 44];
        while (*v != victim) v = &(*v)->chain;
        *v = victim->chain;
        free(victim);
    }
}

void *__sr_access(void *p, unsigned long size, int kind, long group, long token, void *base) {
    char *c = p;
    array_t *a = base ? array_holding(base, 1) : 0;
    if (!a) a = array_holding(c, 0);  /* a local pointer, or an address the instrumentation computed */
    if (!a) {
        int guard = 0;
        char *lo, *hi;
        if (__sr_region_of(c, &lo, &hi, &guard)) {
            const char *name = __sr_array_name(lo + (hi - lo) / 2);
            if (guard)
                __sr_fail("an access %ld bytes from `%s` is outside the region any index can reach",
                          (long)(c - (lo + (hi - lo) / 2)), name ? name : "?");
            /* memory the kernel allocated but never named (`rows[i] = malloc(...)`) */
            __sr_fail("an access to memory the kernel allocated without naming it in a variable "
                      "(`p = malloc(...)`): it cannot be booked to an array");
        }
        return p;
    }
    if (size > 64) return p;      /* a whole row (`A[i]` of a 2-D array), not an element */
    if (c < a->lo || c + size > a->hi) {
        if (a->hi - a->lo < ((long)1 << 30))
            __sr_fail("`%s`[%ld] is outside the array (%ld elements)", a->name, index_of(a, c),
                      (long)((a->hi - a->lo) / a->elem));
        __sr_fail("`%s`[%ld] is outside the region any index can reach", a->name, index_of(a, c));
    }
    int counted = 1;
    if (group >= MAX_GROUPS) __sr_fail("more than %d reference sites", MAX_GROUPS);
    if (group >= 0) {
        if (group_last[group][kind] == token) counted = 0;
        else group_last[group][kind] = token;
    }
    if (counted) { if (kind) a->stores++; else a->loads++; }
    long first = index_of(a, c), last = index_of(a, c + size - 1);
    if (!a->touched || first < a->min_index) a->min_index = first;
    if (!a->touched || last > a->max_index) a->max_index = last;
    a->touched = 1;
    for (size_t off = 0; off < size; off += a->elem) {
        size_t e = (size_t)(c + off - a->lo) / a->elem;
        unsigned char *s = &a->state[e];
        if ((*s & 3) == 0) {
            *s |= kind ? 2 : 1;
            if (!kind) { a->first_read++; fill_element(a, e); }
        }
        if (kind && !(*s & 4)) { *s |= 4; a->n_written++; }
        lru_touch(a - arrays, e, a->elem, kind);
    }
    /* a vector access moves size/elem elements: count them as that many accesses */
    if (counted && size > a->elem) { if (kind) a->stores += size / a->elem - 1; else a->loads += size / a->elem - 1; }
    return p;
}

void __sr_report(void) {
    static const char *names[3] = {"fp64", "fp32", "fp16"};
    for (int p = 0; p < 3; p++) printf("flops %s %ld\n", names[p], flops[p]);
    for (int s = 0; s < 4096; s++)
        for (int p = 0; p < 3; p++)
            if (special_calls[s][p]) printf("special %d %s %ld\n", s, names[p], special_calls[s][p]);
    for (int k = 0; k < n_arrays; k++) {
        array_t *a = &arrays[k];
        printf("array %s %zu %ld %ld %ld %ld %d %ld %ld\n", a->name, a->elem, a->first_read, a->n_written,
               a->loads, a->stores, a->touched, a->min_index, a->max_index);
    }
    if (lru_capacity < 0) {  /* no access at all: an empty cache moved nothing */
        const char *v = getenv("STATICROOF_LRU_BYTES");
        lru_capacity = v ? atol(v) : 0;
    }
    if (lru_capacity > 0) {
        for (node_t *n = lru_head; n; n = n->next) if (n->dirty) lru_moved += n->bytes;
        printf("lru %ld %ld\n", lru_capacity, lru_moved);
    }
}

/* the classification functions of staticroof's <math.h> stub (its isnan() and friends call them) */
int __sr_isfinite(double x) { return __builtin_isfinite(x); }
int __sr_isinf(double x) { return __builtin_isinf(x); }
int __sr_isnan(double x) { return __builtin_isnan(x); }
int __sr_isnormal(double x) { return __builtin_isnormal(x); }
int __sr_signbit(double x) { return __builtin_signbit(x); }
int __sr_isgreater(double x, double y) { return __builtin_isgreater(x, y); }
int __sr_isgreaterequal(double x, double y) { return __builtin_isgreaterequal(x, y); }
int __sr_isless(double x, double y) { return __builtin_isless(x, y); }
int __sr_islessequal(double x, double y) { return __builtin_islessequal(x, y); }
int __sr_islessgreater(double x, double y) { return __builtin_islessgreater(x, y); }
int __sr_isunordered(double x, double y) { return __builtin_isunordered(x, y); }
