// SPDX-License-Identifier: GPL-2.0
/*
 * bench-cost: what the per-file accounting costs, for boot-tests/bench.sh.
 *
 *   bench-cost score    the time to read /proc/PID/oom_score (open, read,
 *                       close) of a process holding N open files of three
 *                       kinds: memfds (empty: the callback is called all
 *                       the same), N of OOMTEST_BENCH_FILES
 *                       (0,1000,10000,100000); opens of the vgem DRM
 *                       device, N of OOMTEST_BENCH_DRM_FILES (0,1000,10000:
 *                       the DRM core opens a file in a time that grows with
 *                       the files open, 100000 take minutes under TCG);
 *                       and AF_UNIX sockets, which hold no memory for the
 *                       OOM killer, N of OOMTEST_BENCH_SOCKETS
 *                       (0,10000,100000); OOMTEST_BENCH_READS reads (15)
 *                       or more, for 0.5 s, round five processes holding
 *                       the files
 *   bench-cost select   the time the OOM killer takes to choose a victim
 *                       among N tasks, N of OOMTEST_BENCH_TASKS (300,1000),
 *                       each holding OOMTEST_BENCH_TASK_FILES memfds (8)
 *                       and a DRM file: sysrq f forces a selection, and the
 *                       kernel's own timestamps say how long it took from
 *                       the sysrq to the first line of the OOM report,
 *                       which is printed right after select_bad_process();
 *                       OOMTEST_BENCH_SAMPLES selections (5)
 *   bench-cost fdops    the time of a memfd_create() or socket() and its
 *                       close(), and of a dup() of one and its close():
 *                       what any bookkeeping in the fd-table code costs;
 *                       OOMTEST_BENCH_FD_LOOPS pairs (10000) a sample,
 *                       OOMTEST_BENCH_SAMPLES samples (5)
 *   bench-cost fdops    (continued) and, with OOMTEST_BENCH_HELD files of
 *                       the kind held (100), a fork() whose child exits
 *                       at once, a fork() and execve() of busybox true,
 *                       and an SCM_RIGHTS round trip of one file to our
 *                       own socket and its close(); loops/100 of each
 *                       fork and exec, loops/10 of SCM_RIGHTS
 *   bench-cost alloc    the cost of charging and uncharging: the time a
 *                       page of write() to a new memfd, of a write fault
 *                       of a shared mapping of one, and of a punch-hole
 *                       of its pages (OOMTEST_BENCH_ALLOC_PAGES pages,
 *                       1024, a sample); and from SIGKILL to waitpid() of
 *                       a process holding OOMTEST_BENCH_EXIT_FILES memfds
 *                       (1000) of a written page each, which the exit
 *                       frees; OOMTEST_BENCH_SAMPLES samples (5)
 *   bench-cost latency  the latency of a socket() and close() of a process
 *                       holding N memfds, N of OOMTEST_BENCH_LATENCY_FILES
 *                       (10000), while another process reads its oom_score
 *                       without pause: its 99th percentile and its worst
 *                       over OOMTEST_BENCH_LATENCY_OPS pairs (20000).  A
 *                       scan of the fds under the fd table's lock would
 *                       hold up both calls for the whole scan
 *   bench-handoff       (bench-cost handoff) what handing charges over
 *                       costs: a payer of OOMTEST_BENCH_HANDOFF_FILES
 *                       memfds (1000) of a written page each, whose child
 *                       inherited them and keeps them; the time from
 *                       SIGKILL to waitpid() of the payer, whose exit
 *                       hands them to the child; and, with the payer
 *                       alive and its fds closed (orphaned charges), the
 *                       time of a forced OOM kill (sysrq f) of a third
 *                       process, from the sysrq to the OOM report, which
 *                       the hand-off comes before; OOMTEST_BENCH_SAMPLES
 *                       samples (5), each with a new payer and keeper
 *   bench-gem           (bench-cost gem) the time of a vgem dumb buffer
 *                       create and GEM_CLOSE, OOMTEST_BENCH_GEM_LOOPS
 *                       pairs (1000) a sample, on a new DRM file each
 *                       sample, OOMTEST_BENCH_SAMPLES samples (5)
 *
 * Each result is one line: "result KIND KEY... median MEDIAN min MIN max
 * MAX", times in ns (latency: one value, so the three are the same); "skip KIND KEY... REASON" when a case could not be
 * run (N files did not fit in the guest, say).  This process is out of the
 * OOM killer's reach (oom_score_adj -1000); the processes it measures are
 * at 0, as oom_badness() skips a task at -1000 before looking at its files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include "guest.h"

#define MAX_SAMPLES 1000
/*
 * Samples follow each other with no gap, for at least SPAN_NS: under TCG
 * a guest that pauses, asleep or spinning, comes back cold (QEMU shrinks
 * its software TLB when little of it is used), and its next sample takes
 * several times as long; and a span of time, rather than a number of
 * samples, rides over the host's busy moments.
 */
#define SPAN_NS 500000000LL

static char vgem_path[32];

enum { MEMFD, DRM, SOCKET, NKINDS };
static const char *const kind_names[NKINDS] = { "memfd", "drm", "socket" };

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? atol(v) : def;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Print " median M min m max M" of @n samples, sorting them. */
static void print_stats(long long *s, int n)
{
	qsort(s, n, sizeof(*s), cmp_ll);
	printf(" median %lld min %lld max %lld\n",
	       n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2, s[0], s[n - 1]);
}

/* The vgem card's path in vgem_path; -1 if there is none. */
static int find_vgem(void)
{
	int fd = open_card("vgem", vgem_path, sizeof(vgem_path));

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int open_one(int kind)
{
	switch (kind) {
	case DRM:
		return open(vgem_path, O_RDWR);
	case SOCKET:
		return socket(AF_UNIX, SOCK_DGRAM, 0);
	default:
		return memfd_create("bench", 0);
	}
}

/*
 * The processes whose oom_score is read: a child at oom_score_adj 0 that
 * opens @n files, then forks COPIES more of itself, which hold the same
 * files; the reads go round them, so that where one process's structures
 * happen to lie in memory (which TCG's software TLB is sensitive to) does
 * not weigh on the result.  The pids go to @pids; returns the fd that
 * keeps them alive (close it and reap the child to end them), -1 if the
 * files could not be opened (said on stdout).
 */
#define COPIES 4

static int holders(int which, long n, pid_t *pids)
{
	struct rlimit nofile = { n + 64, n + 64 };
	int ready[2], end[2], i;
	long opened = 0, dt = 0;
	const char *kind = kind_names[which];
	char c;

	if (pipe(ready) || pipe(end))
		die("pipe");
	pids[0] = fork();
	if (pids[0] < 0)
		die("fork");
	if (!pids[0]) {
		long long t0 = now_ns();

		close(ready[0]);
		close(end[1]);
		set_oom_score_adj("0");
		if (setrlimit(RLIMIT_NOFILE, &nofile))
			die("RLIMIT_NOFILE");
		while (opened < n && open_one(which) >= 0)
			opened++;
		dt = (now_ns() - t0) / 1000000;
		for (i = 1; i <= COPIES && opened == n; i++) {
			pids[i] = fork();
			if (pids[i] < 0)
				die("fork");
			if (!pids[i]) {
				/* Until the end pipe is closed. */
				_exit(read(end[0], &c, 1) != 0);
			}
		}
		if (write(ready[1], &opened, sizeof(opened)) != sizeof(opened) ||
		    write(ready[1], &dt, sizeof(dt)) != sizeof(dt) ||
		    write(ready[1], pids + 1, COPIES * sizeof(*pids)) < 0 || opened < n)
			_exit(1);
		if (read(end[0], &c, 1) < 0)
			die("end");
		while (wait(NULL) > 0)
			;
		_exit(0);
	}
	close(ready[1]);
	close(end[0]);
	if (read(ready[0], &opened, sizeof(opened)) != sizeof(opened) ||
	    read(ready[0], &dt, sizeof(dt)) != sizeof(dt)) {
		printf("skip score %s %ld: killed while opening them (out of memory)\n",
		       kind, n);
		opened = -1;
	} else if (opened < n) {
		printf("skip score %s %ld: only %ld opened\n", kind, n, opened);
	} else if (read(ready[0], pids + 1, COPIES * sizeof(*pids)) !=
		   COPIES * sizeof(*pids)) {
		die("the holder's copies");
	} else {
		printf("# %ld %s files opened in %ld ms\n", n, kind, dt);
	}
	close(ready[0]);
	if (opened == n)
		return end[1];
	close(end[1]);
	kill(pids[0], SIGKILL);
	waitpid(pids[0], NULL, 0);
	return -1;
}

/* The time of an open, read and close of @path, in ns. */
static long long read_ns(const char *path)
{
	char buf[32];
	long long t0 = now_ns();
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
		die(path);
	close(fd);
	return now_ns() - t0;
}

static void score(void)
{
	const char *lists[NKINDS] = {
		getenv("OOMTEST_BENCH_FILES") ?: "0,1000,10000,100000",
		getenv("OOMTEST_BENCH_DRM_FILES") ?: "0,1000,10000",
		getenv("OOMTEST_BENCH_SOCKETS") ?: "0,10000,100000",
	};
	int reads = env_long("OOMTEST_BENCH_READS", 15), kind, i, end;
	char path[COPIES + 1][64], list[256], *n, *save;
	pid_t pids[COPIES + 1];
	long long s[MAX_SAMPLES], t0;

	/*
	 * AF_UNIX refuses a socket when the system holds more than twice
	 * fs.file-max of them (root or not), and file-max follows the
	 * guest's memory (about 52000 in 512 MiB): raise it, on every
	 * kernel alike, so that 100000 sockets can be opened.
	 */
	write_file("/proc/sys/fs/file-max", "1000000");
	if (reads < 1 || reads > MAX_SAMPLES)
		reads = 15;
	if (find_vgem())
		skip("no vgem card (CONFIG_DRM_VGEM)");
	for (kind = 0; kind < NKINDS; kind++) {
		snprintf(list, sizeof(list), "%s", lists[kind]);
		for (n = strtok_r(list, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
			end = holders(kind, atol(n), pids);
			if (end < 0)
				continue;
			for (i = 0; i <= COPIES; i++)
				snprintf(path[i], sizeof(path[i]), "/proc/%d/oom_score", pids[i]);
			read_ns(path[0]);	/* warm up */
			t0 = now_ns();
			for (i = 0; i < MAX_SAMPLES &&
			     (i < reads || now_ns() - t0 < SPAN_NS); i++)
				s[i] = read_ns(path[i % (COPIES + 1)]);
			printf("result score %s %ld", kind_names[kind], atol(n));
			print_stats(s, i);
			close(end);
			waitpid(pids[0], NULL, 0);
		}
	}
}

/*
 * The kernel timestamp (us) of the next record of /dev/kmsg that contains
 * @what, or -1 when there is none yet.
 */
static long long kmsg_find(int kmsg, const char *what)
{
	char rec[2048];
	unsigned long long ts;
	ssize_t len;

	for (;;) {
		len = read(kmsg, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* records were overwritten */
		if (len <= 0)
			return -1;
		rec[len] = 0;
		if (strstr(rec, what) && sscanf(rec, "%*u,%*u,%llu", &ts) == 1)
			return ts;
	}
}

static void select_one(int kmsg, long long *sample)
{
	long long t0 = -1, t1 = -1;
	int i;

	write_file("/proc/sysrq-trigger", "f");
	/* The victim dies after the report: wait for it. */
	if (wait(NULL) < 0)
		die("wait for the OOM killer's victim");
	for (i = 0; i < 50 && t1 < 0; i++) {
		if (t0 < 0)
			t0 = kmsg_find(kmsg, "Manual OOM execution");
		if (t0 >= 0)
			t1 = kmsg_find(kmsg, "invoked oom-killer");
		if (t1 < 0)
			usleep(20000);
	}
	*sample = t0 >= 0 && t1 >= 0 ? (t1 - t0) * 1000 : -1;
}

static void select_among(long tasks)
{
	long files = env_long("OOMTEST_BENCH_TASK_FILES", 8);
	int samples = env_long("OOMTEST_BENCH_SAMPLES", 5), n = 0, i, j, kmsg;
	long long s[MAX_SAMPLES];
	int ready[2];
	pid_t *pids;
	char c;

	if (samples < 1 || samples > MAX_SAMPLES || samples >= tasks)
		samples = 5;
	pids = calloc(tasks, sizeof(*pids));
	if (!pids || find_vgem())
		skip("no vgem card (CONFIG_DRM_VGEM)");
	if (pipe(ready))
		die("pipe");
	for (i = 0; i < tasks; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i])
			continue;
		set_oom_score_adj("0");
		for (j = 0; j < files; j++)
			if (memfd_create("bench", 0) < 0)
				die("memfd_create");
		if (open(vgem_path, O_RDWR) < 0 || write(ready[1], "r", 1) != 1)
			die("vgem");
		for (;;)
			pause();
	}
	for (i = 0; i < tasks; i++)
		if (read(ready[0], &c, 1) != 1)
			die("a task did not get ready");
	/* No list of 300 tasks in the log: the report needs only its header. */
	write_file("/proc/sys/vm/oom_dump_tasks", "0");
	kmsg = kmsg_open();
	for (i = 0; i < samples; i++) {
		select_one(kmsg, &s[n]);
		if (s[n] >= 0)
			n++;
		else
			printf("# selection %d: no timestamps (the report was rate-limited?)\n", i);
		/* The OOM report is rate-limited to 10 in 5 s. */
		usleep(600000);
	}
	write_file("/proc/sys/vm/oom_dump_tasks", "1");
	for (i = 0; i < tasks; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	close(kmsg);
	free(pids);
	if (!n) {
		printf("skip select %ld %ld: no selection timed\n", tasks, files);
		return;
	}
	printf("result select %ld %ld", tasks, files);
	print_stats(s, n);
}

static void select_victim(void)
{
	char list[256], *n, *save;

	snprintf(list, sizeof(list), "%s", getenv("OOMTEST_BENCH_TASKS") ?: "300,1000");
	for (n = strtok_r(list, ",", &save); n; n = strtok_r(NULL, ",", &save))
		if (atol(n) > 0)
			select_among(atol(n));
}

/* The time of @loops pairs of @op on a file of @kind and its close(). */
static long long fdop_ns(int kind, int dup_it, long loops)
{
	int base = dup_it ? open_one(kind) : -1, fd;
	long long t0;
	long l;

	if (dup_it && base < 0)
		die("open");
	t0 = now_ns();
	for (l = 0; l < loops; l++) {
		fd = dup_it ? dup(base) : open_one(kind);
		if (fd < 0 || close(fd))
			die(dup_it ? "dup" : "open");
	}
	t0 = now_ns() - t0;
	if (base >= 0)
		close(base);
	return t0 / loops;
}

/* Hold @n files of @kind (not close-on-exec): they go with fork and exec. */
static void hold_files(int kind, long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (open_one(kind) < 0)
			die("open of a held file");
}

/* The time of @loops fork()s whose child exits (execs busybox true, with @exec_it). */
static long long fork_ns(int exec_it, long loops)
{
	char *argv[] = { "/bin/busybox", "true", NULL };
	long long t0 = now_ns();
	int status;
	long l;

	for (l = 0; l < loops; l++) {
		pid_t p = fork();

		if (p < 0)
			die("fork");
		if (!p) {
			if (exec_it)
				execv(argv[0], argv);
			_exit(0);
		}
		if (waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status))
			die(exec_it ? "fork and exec of busybox true" : "fork");
	}
	return (now_ns() - t0) / loops;
}

/* The time of @loops SCM_RIGHTS round trips of a file of @kind, and its close(). */
static long long scm_ns(int kind, long loops)
{
	int sv[2], fd = open_one(kind), got;
	long long t0;
	long l;

	if (fd < 0 || socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	t0 = now_ns();
	for (l = 0; l < loops; l++) {
		send_fd(sv[0], fd);
		got = recv_fd(sv[1]);
		if (got < 0 || close(got))
			die("SCM_RIGHTS round trip");
	}
	t0 = now_ns() - t0;
	close(sv[0]);
	close(sv[1]);
	close(fd);
	return t0 / loops;
}

/* Print the samples of @fn(@kind or @exec_it, @loops) as "result fdops KIND OP LOOPS". */
static void fdop_samples(int kind, const char *op, long loops, int samples,
			 long long (*fn)(int, long), int arg)
{
	long long s[MAX_SAMPLES];
	int i;

	if (loops < 1)
		loops = 1;
	fn(arg, loops / 10 ?: 1);	/* warm up */
	for (i = 0; i < samples; i++)
		s[i] = fn(arg, loops);
	printf("result fdops %s %s %ld", kind_names[kind], op, loops);
	print_stats(s, samples);
}

/*
 * open (memfd_create(), socket()) and dup() with their close(), for a file
 * that holds memory for the OOM killer and one that does not; then fork,
 * exec and SCM_RIGHTS of a process holding such files.
 */
static void fdops(void)
{
	long loops = env_long("OOMTEST_BENCH_FD_LOOPS", 10000);
	int samples = env_long("OOMTEST_BENCH_SAMPLES", 5), i, kind, dup_it;
	const int kinds[] = { MEMFD, SOCKET };
	long long s[MAX_SAMPLES];

	if (samples < 1 || samples > MAX_SAMPLES)
		samples = 5;
	for (kind = 0; kind < 2; kind++) {
		for (dup_it = 0; dup_it < 2; dup_it++) {
			fdop_ns(kinds[kind], dup_it, loops / 10);	/* warm up */
			for (i = 0; i < samples; i++)
				s[i] = fdop_ns(kinds[kind], dup_it, loops);
			printf("result fdops %s %s %ld", kind_names[kinds[kind]],
			       dup_it ? "dup" : "open", loops);
			print_stats(s, samples);
		}
	}
	for (kind = 0; kind < 2; kind++) {
		long held = env_long("OOMTEST_BENCH_HELD", 100);
		pid_t p = fork();
		int status;

		if (p < 0)
			die("fork");
		if (!p) {
			/* In a child, so that the held files go with it. */
			hold_files(kinds[kind], held);
			fdop_samples(kinds[kind], "fork", loops / 100, samples, fork_ns, 0);
			fdop_samples(kinds[kind], "exec", loops / 100, samples, fork_ns, 1);
			fdop_samples(kinds[kind], "scm", loops / 10, samples, scm_ns, kinds[kind]);
			_exit(0);
		}
		if (waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status))
			die("fdops with held files");
	}
}

/* A new memfd of @pages pages, written (@fault: through a shared mapping). */
static long long charge_ns(int fault, long pages, int *fdp)
{
	int fd = memfd_create("bench", 0);
	char buf[4096];
	long long t0;
	char *p = NULL;
	long i;

	if (fd < 0)
		die("memfd_create");
	memset(buf, 1, sizeof(buf));
	if (fault) {
		if (ftruncate(fd, pages * page_size))
			die("ftruncate");
		p = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			die("mmap");
	}
	t0 = now_ns();
	for (i = 0; i < pages; i++) {
		if (fault)
			p[i * page_size] = 1;
		else if (write(fd, buf, page_size) != page_size)
			die("write to memfd");
	}
	t0 = now_ns() - t0;
	if (p)
		munmap(p, pages * page_size);
	*fdp = fd;
	return t0 / pages;
}

/*
 * In a child: raise RLIMIT_NOFILE, and open @files memfds of a written page
 * each, their fds in @fds.
 */
static void charged_memfds(long files, int *fds)
{
	struct rlimit nofile = { files + 64, files + 64 };
	char page[4096];
	long i;

	memset(page, 1, sizeof(page));
	if (setrlimit(RLIMIT_NOFILE, &nofile))
		die("setrlimit");
	for (i = 0; i < files; i++) {
		int fd = memfd_create("bench", 0);

		if (fd < 0 || write(fd, page, page_size) != page_size)
			die("a charged memfd");
		fds[i] = fd;
	}
}

/*
 * A payer of @files memfds of a written page each: its pid.  With @keeper,
 * also its child, which inherited them and keeps them, its pid in *@keeper;
 * with @let_go, the payer then closes its own and lives on.  A keeper is
 * ours to reap only if we are a subreaper.
 */
static pid_t start_payer(long files, pid_t *keeper, int let_go)
{
	int ready[2];
	pid_t p, k = 0;

	if (pipe(ready))
		die("pipe");
	p = fork();
	if (p < 0)
		die("fork");
	if (!p) {
		int *fds = calloc(files, sizeof(*fds));
		long i;

		if (!fds)
			die("calloc");
		charged_memfds(files, fds);
		if (keeper) {
			k = fork();
			if (k < 0)
				die("fork of the keeper");
			if (!k)
				for (;;)
					pause();
		}
		if (let_go)
			for (i = 0; i < files; i++)
				close(fds[i]);
		if (write(ready[1], &k, sizeof(k)) != sizeof(k))
			die("ready");
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &k, sizeof(k)) != sizeof(k))
		die("the payer did not get its memfds");
	close(ready[0]);
	if (keeper)
		*keeper = k;
	return p;
}

/* The time from SIGKILL to waitpid() of a process holding @files charged memfds. */
static long long exit_ns(long files)
{
	pid_t p = start_payer(files, NULL, 0);
	long long t0 = now_ns();
	int status;

	kill(p, SIGKILL);
	if (waitpid(p, &status, 0) != p)
		die("waitpid");
	return now_ns() - t0;
}

/* Kill @pid, which is ours to reap, and reap it. */
static void kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");
}

static void handoff(void)
{
	long files = env_long("OOMTEST_BENCH_HANDOFF_FILES", 1000);
	int samples = env_long("OOMTEST_BENCH_SAMPLES", 5), i, n = 0, kmsg;
	long long exits[MAX_SAMPLES], ooms[MAX_SAMPLES], t0;
	pid_t payer, keeper, victim;
	int ready[2];
	char c;

	if (samples < 1 || samples > MAX_SAMPLES)
		samples = 5;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		die("PR_SET_CHILD_SUBREAPER");
	for (i = -1; i < samples; i++) {	/* -1: warm up */
		payer = start_payer(files, &keeper, 0);
		t0 = now_ns();
		kill_reap(payer);
		if (i >= 0)
			exits[i] = now_ns() - t0;
		kill_reap(keeper);
	}
	printf("result handoff exit %ld", files);
	print_stats(exits, samples);

	write_file("/proc/sys/vm/oom_dump_tasks", "0");
	kmsg = kmsg_open();
	for (i = 0; i < samples; i++) {
		payer = start_payer(files, &keeper, 1);
		/* The OOM's victim, which select_one() reaps. */
		if (pipe(ready))
			die("pipe");
		victim = fork();
		if (victim < 0)
			die("fork");
		if (!victim) {
			set_oom_score_adj("1000");
			if (write(ready[1], "r", 1) != 1)
				die("ready");
			for (;;)
				pause();
		}
		if (read(ready[0], &c, 1) != 1)
			die("the victim did not get ready");
		close(ready[0]);
		close(ready[1]);
		select_one(kmsg, &ooms[n]);
		if (ooms[n] >= 0)
			n++;
		else
			printf("# OOM %d: no timestamps (the report was rate-limited?)\n", i);
		kill_reap(payer);
		kill_reap(keeper);
		/* The OOM report is rate-limited to 10 in 5 s. */
		usleep(600000);
	}
	write_file("/proc/sys/vm/oom_dump_tasks", "1");
	close(kmsg);
	if (!n) {
		printf("skip handoff oom %ld: no OOM timed\n", files);
		return;
	}
	printf("result handoff oom %ld", files);
	print_stats(ooms, n);
}

static void alloc(void)
{
	long pages = env_long("OOMTEST_BENCH_ALLOC_PAGES", 1024);
	long files = env_long("OOMTEST_BENCH_EXIT_FILES", 1000);
	int samples = env_long("OOMTEST_BENCH_SAMPLES", 5), i, k, fd;
	static const char *const ops[] = { "write", "fault", "punch" };
	long long s[3][MAX_SAMPLES], t0;

	if (samples < 1 || samples > MAX_SAMPLES)
		samples = 5;
	for (i = -1; i < samples; i++) {	/* -1: warm up */
		for (k = 0; k < 2; k++) {
			long long t = charge_ns(k, pages, &fd);

			if (k == 0) {
				/* Punch the pages write() charged. */
				t0 = now_ns();
				if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					      0, pages * page_size))
					die("punch-hole");
				if (i >= 0)
					s[2][i] = (now_ns() - t0) / pages;
			}
			if (i >= 0)
				s[k][i] = t;
			close(fd);
		}
	}
	for (k = 0; k < 3; k++) {
		printf("result alloc %s %ld", ops[k], pages);
		print_stats(s[k], samples);
	}
	exit_ns(files / 10 ?: 1);	/* warm up */
	for (i = 0; i < samples; i++)
		s[0][i] = exit_ns(files);
	printf("result alloc exit %ld", files);
	print_stats(s[0], samples);
}

/*
 * The latency of socket() and close() in a process holding @files memfds
 * while another reads its oom_score without pause.  A read that scanned
 * the fds under the fd table's spinlock would hold both calls up for the
 * whole scan.
 */
static void latency(void)
{
	long files = env_long("OOMTEST_BENCH_LATENCY_FILES", 10000);
	long ops = env_long("OOMTEST_BENCH_LATENCY_OPS", 20000), i;
	struct rlimit nofile = { files + 64, files + 64 };
	int ready[2], go[2], status;
	pid_t scored, reader;
	long long *lat, p99;
	char path[64], c;

	if (ops < 100)
		ops = 20000;
	if (pipe(ready) || pipe(go))
		die("pipe");
	scored = fork();
	if (scored < 0)
		die("fork");
	if (!scored) {
		lat = calloc(ops, sizeof(*lat));
		if (!lat || setrlimit(RLIMIT_NOFILE, &nofile))
			die("the scored process's set-up");
		set_oom_score_adj("0");
		for (i = 0; i < files; i++)
			if (memfd_create("bench", 0) < 0)
				die("memfd_create");
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			die("ready");
		for (i = 0; i < ops; i++) {
			long long t0 = now_ns();
			int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

			if (fd < 0 || close(fd))
				die("socket");
			lat[i] = now_ns() - t0;
		}
		qsort(lat, ops, sizeof(*lat), cmp_ll);
		p99 = lat[ops * 99 / 100];
		printf("result latency p99 %ld median %lld min %lld max %lld\n",
		       files, p99, p99, p99);
		printf("result latency max %ld median %lld min %lld max %lld\n",
		       files, lat[ops - 1], lat[ops - 1], lat[ops - 1]);
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		die("the scored process did not get ready");
	snprintf(path, sizeof(path), "/proc/%d/oom_score", scored);
	reader = fork();
	if (reader < 0)
		die("fork");
	if (!reader) {
		for (;;)
			read_ns(path);
	}
	usleep(100000);		/* the reader is under way */
	if (write(go[1], "g", 1) != 1)
		die("go");
	if (waitpid(scored, &status, 0) != scored || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("the scored process");
	kill(reader, SIGKILL);
	waitpid(reader, NULL, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

static void gem(void)
{
	long loops = env_long("OOMTEST_BENCH_GEM_LOOPS", 1000), l;
	int samples = env_long("OOMTEST_BENCH_SAMPLES", 5), i, fd;
	long long s[MAX_SAMPLES], t0;

	if (samples < 1 || samples > MAX_SAMPLES)
		samples = 5;
	if (find_vgem())
		skip("no vgem card (CONFIG_DRM_VGEM)");
	for (i = 0; i < samples; i++) {
		/* A new file each sample, for the reason holders() gives. */
		fd = open(vgem_path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			die(vgem_path);
		t0 = now_ns();
		for (l = 0; l < loops; l++) {
			struct drm_mode_create_dumb create = {
				.width = 64, .height = 64, .bpp = 32,
			};
			struct drm_gem_close close = { 0 };

			if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
				die("DRM_IOCTL_MODE_CREATE_DUMB");
			close.handle = create.handle;
			if (ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close))
				die("DRM_IOCTL_GEM_CLOSE");
		}
		s[i] = (now_ns() - t0) / loops;
		close(fd);
	}
	printf("result gem %ld", loops);
	print_stats(s, samples);
}

/*
 * Say what the clock counts with: under TCG, unless the TSC is given to
 * the kernel (boot-tests/bench.sh does), the x86 kernel falls back to
 * jiffies, 4 ms steps, for its clock and for the timestamps of its log.
 */
static void clocksource(void)
{
	char cs[64] = "?\n";
	FILE *f;

	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f && !fgets(cs, sizeof(cs), f))
		cs[0] = 0;
	if (f)
		fclose(f);
	printf("# clocksource: %s", cs);
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(name, "bench-cost") && argc > 1)
		name = argv[1];
	set_oom_score_adj("-1000");
	clocksource();
	if (!strcmp(name, "score")) {
		score();
	} else if (!strcmp(name, "select")) {
		select_victim();
	} else if (!strcmp(name, "gem")) {
		gem();
	} else if (!strcmp(name, "fdops")) {
		fdops();
	} else if (!strcmp(name, "latency")) {
		latency();
	} else if (!strcmp(name, "alloc")) {
		alloc();
	} else if (!strcmp(name, "handoff")) {
		handoff();
	} else {
		fprintf(stderr, "usage: bench-cost score | select | gem | fdops | latency | alloc | handoff\n");
		return 2;
	}
	return 0;
}
