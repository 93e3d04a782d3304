/* staticroof trace runtime (see runtime.h).  Elements are identified by their address inside
 * the arrays the kernel registered; accesses elsewhere (locals, the stack) are not DRAM. */
#include "runtime.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_ARRAYS 64
#define MAX_GROUPS 65536

typedef struct {
    const char *name;
    char *base;
    size_t elem, bytes;
    unsigned char *state;   /* 0 untouched, 1 first access was a read, 2 first access was a write */
    unsigned char *written;
    long loads, stores, first_read, n_written;
    int fill;
} array_t;

/* Large, lazily backed memory: only the pages a kernel touches cost anything. */
static void *lazy(size_t bytes) {
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) { fprintf(stderr, "staticroof trace: cannot map %zu bytes\n", bytes); exit(3); }
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
    if (precision >= 0 && site < 4096) special_calls[site][precision] += 1;
}

static unsigned long rng = 88172645463325252UL;
static unsigned long next_random(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

void __sr_register(const char *name, void *base, unsigned long elem, unsigned long bytes, int fill) {
    for (int k = 0; k < n_arrays; k++)
        if (arrays[k].base == (char *)base) return;
    if (n_arrays == MAX_ARRAYS || elem == 0) return;
    array_t *a = &arrays[n_arrays++];
    a->name = name; a->base = base; a->elem = elem; a->bytes = bytes; a->fill = fill;
    a->state = lazy(bytes / elem + 1);
    a->written = lazy(bytes / elem + 1);
}

/* A random value, never zero, written into an element just before its first access. */
static void fill_element(array_t *a, size_t e) {
    double r = 0.5 + (double)(next_random() % 1000003) / 1000003.0;
    char *p = a->base + e * a->elem;
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

void *__sr_access(void *p, unsigned long size, int kind, long group, long token) {
    char *c = p;
    for (int k = 0; k < n_arrays; k++) {
        array_t *a = &arrays[k];
        if (c < a->base || c >= a->base + a->bytes) continue;
        if (size > 64) return p;      /* a whole row (`A[i]` of a 2-D array), not an element */
        int counted = 1;
        if (group >= 0 && group < MAX_GROUPS) {
            if (group_last[group][kind] == token) counted = 0;
            else group_last[group][kind] = token;
        }
        if (counted) { if (kind) a->stores++; else a->loads++; }
        for (size_t off = 0; off < size; off += a->elem) {
            size_t e = (size_t)(c + off - a->base) / a->elem;
            if (a->state[e] == 0) {
                a->state[e] = kind ? 2 : 1;
                if (!kind) { a->first_read++; fill_element(a, e); }
            }
            if (kind && !a->written[e]) { a->written[e] = 1; a->n_written++; }
            lru_touch(k, e, a->elem, kind);
        }
        /* a vector access moves size/elem elements: count them as that many accesses */
        if (counted && size > a->elem) { if (kind) a->stores += size / a->elem - 1; else a->loads += size / a->elem - 1; }
        return p;
    }
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
        printf("array %s %zu %ld %ld %ld %ld\n", a->name, a->elem, a->first_read, a->n_written, a->loads, a->stores);
    }
    if (lru_capacity > 0) {
        for (node_t *n = lru_head; n; n = n->next) if (n->dirty) lru_moved += n->bytes;
        printf("lru %ld %ld\n", lru_capacity, lru_moved);
    }
}
