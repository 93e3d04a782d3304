/* unistd.h -- staticroof stub (POSIX). */
#ifndef _STATICROOF_UNISTD_H
#define _STATICROOF_UNISTD_H

#include "_staticroof_types.h"

#define STDIN_FILENO   0
#define STDOUT_FILENO  1
#define STDERR_FILENO  2

#define F_OK  0
#define X_OK  1
#define W_OK  2
#define R_OK  4

#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif

#define _SC_CLK_TCK            2
#define _SC_PAGESIZE           30
#define _SC_PAGE_SIZE          _SC_PAGESIZE
#define _SC_NPROCESSORS_CONF   83
#define _SC_NPROCESSORS_ONLN   84
#define _SC_PHYS_PAGES         85
#define _SC_LEVEL1_DCACHE_LINESIZE 190

/* ---- input/output ----------------------------------------------------- */
ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
ssize_t pread(int fd, void *buf, size_t count, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);
int close(int fd);
off_t lseek(int fd, off_t offset, int whence);
int dup(int fd);
int dup2(int fd, int fd2);
int pipe(int fds[2]);
int fsync(int fd);
int ftruncate(int fd, off_t length);

/* ---- files and directories -------------------------------------------- */
int access(const char *path, int amode);
int unlink(const char *path);
int rmdir(const char *path);
int chdir(const char *path);
char *getcwd(char *buf, size_t size);
int isatty(int fd);

/* ---- processes -------------------------------------------------------- */
pid_t getpid(void);
pid_t getppid(void);
pid_t fork(void);
uid_t getuid(void);
gid_t getgid(void);
int execv(const char *path, char *const argv[]);
int execvp(const char *file, char *const argv[]);
void _exit(int status);

/* ---- timing ----------------------------------------------------------- */
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
unsigned int alarm(unsigned int seconds);

/* ---- system information ----------------------------------------------- */
long sysconf(int name);
int getpagesize(void);
int gethostname(char *name, size_t len);

/* ---- command-line options --------------------------------------------- */
int getopt(int argc, char *const argv[], const char *optstring);
extern char *optarg;
extern int optind;
extern int opterr;
extern int optopt;

#endif /* _STATICROOF_UNISTD_H */
