/* stdio.h -- staticroof stub.  FILE is an opaque struct (shared header). */
#ifndef _STATICROOF_STDIO_H
#define _STATICROOF_STDIO_H

#include "_staticroof_types.h"

#define EOF           (-1)
#define BUFSIZ        8192
#define FILENAME_MAX  4096
#define FOPEN_MAX     16
#define L_tmpnam      20
#define TMP_MAX       238328
#define _IOFBF        0
#define _IOLBF        1
#define _IONBF        2
#ifndef SEEK_SET
#define SEEK_SET      0
#define SEEK_CUR      1
#define SEEK_END      2
#endif

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;

/* ---- file access ------------------------------------------------------ */
FILE *fopen(const char *restrict filename, const char *restrict mode);
FILE *freopen(const char *restrict filename, const char *restrict mode,
              FILE *restrict stream);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *stream);
int fflush(FILE *stream);
void setbuf(FILE *restrict stream, char *restrict buf);
int setvbuf(FILE *restrict stream, char *restrict buf, int mode, size_t size);
int fileno(FILE *stream);
FILE *tmpfile(void);
char *tmpnam(char *s);
int remove(const char *filename);
int rename(const char *oldname, const char *newname);

/* ---- formatted output ------------------------------------------------- */
int printf(const char *restrict format, ...);
int fprintf(FILE *restrict stream, const char *restrict format, ...);
int sprintf(char *restrict s, const char *restrict format, ...);
int snprintf(char *restrict s, size_t n, const char *restrict format, ...);
int dprintf(int fd, const char *restrict format, ...);
int vprintf(const char *restrict format, va_list arg);
int vfprintf(FILE *restrict stream, const char *restrict format, va_list arg);
int vsprintf(char *restrict s, const char *restrict format, va_list arg);
int vsnprintf(char *restrict s, size_t n, const char *restrict format,
              va_list arg);

/* ---- formatted input -------------------------------------------------- */
int scanf(const char *restrict format, ...);
int fscanf(FILE *restrict stream, const char *restrict format, ...);
int sscanf(const char *restrict s, const char *restrict format, ...);
int vscanf(const char *restrict format, va_list arg);
int vfscanf(FILE *restrict stream, const char *restrict format, va_list arg);
int vsscanf(const char *restrict s, const char *restrict format, va_list arg);

/* ---- character input/output ------------------------------------------- */
int fgetc(FILE *stream);
int getc(FILE *stream);
int getchar(void);
char *fgets(char *restrict s, int n, FILE *restrict stream);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int putchar(int c);
int fputs(const char *restrict s, FILE *restrict stream);
int puts(const char *s);
int ungetc(int c, FILE *stream);
ssize_t getline(char **restrict lineptr, size_t *restrict n,
                FILE *restrict stream);

/* ---- direct input/output ---------------------------------------------- */
size_t fread(void *restrict ptr, size_t size, size_t nmemb,
             FILE *restrict stream);
size_t fwrite(const void *restrict ptr, size_t size, size_t nmemb,
              FILE *restrict stream);

/* ---- file positioning ------------------------------------------------- */
int fgetpos(FILE *restrict stream, fpos_t *restrict pos);
int fsetpos(FILE *stream, const fpos_t *pos);
int fseek(FILE *stream, long offset, int whence);
long ftell(FILE *stream);
int fseeko(FILE *stream, off_t offset, int whence);
off_t ftello(FILE *stream);
void rewind(FILE *stream);

/* ---- error handling --------------------------------------------------- */
void clearerr(FILE *stream);
int feof(FILE *stream);
int ferror(FILE *stream);
void perror(const char *s);

#endif /* _STATICROOF_STDIO_H */
