/* string.h -- staticroof stub (C99 plus common POSIX functions). */
#ifndef _STATICROOF_STRING_H
#define _STATICROOF_STRING_H

#include "_staticroof_types.h"

/* ---- copying ---------------------------------------------------------- */
void *memcpy(void *restrict dest, const void *restrict src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
char *strcpy(char *restrict dest, const char *restrict src);
char *strncpy(char *restrict dest, const char *restrict src, size_t n);
char *stpcpy(char *restrict dest, const char *restrict src);
char *strdup(const char *s);
char *strndup(const char *s, size_t n);

/* ---- concatenation ---------------------------------------------------- */
char *strcat(char *restrict dest, const char *restrict src);
char *strncat(char *restrict dest, const char *restrict src, size_t n);

/* ---- comparison ------------------------------------------------------- */
int memcmp(const void *s1, const void *s2, size_t n);
int strcmp(const char *s1, const char *s2);
int strncmp(const char *s1, const char *s2, size_t n);
int strcoll(const char *s1, const char *s2);
size_t strxfrm(char *restrict dest, const char *restrict src, size_t n);

/* ---- searching -------------------------------------------------------- */
void *memchr(const void *s, int c, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
size_t strcspn(const char *s1, const char *s2);
size_t strspn(const char *s1, const char *s2);
char *strpbrk(const char *s1, const char *s2);
char *strstr(const char *haystack, const char *needle);
char *strtok(char *restrict s, const char *restrict delim);
char *strtok_r(char *restrict s, const char *restrict delim,
               char **restrict saveptr);

/* ---- miscellaneous ---------------------------------------------------- */
void *memset(void *s, int c, size_t n);
char *strerror(int errnum);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);

#endif /* _STATICROOF_STRING_H */
