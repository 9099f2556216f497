// SPDX-License-Identifier: GPL-2.0
/*
 * desktop-scenario SCENARIO: whom does the OOM killer kill first on a
 * Wayland desktop?  Weston (Debian's, from the desktop guest's initramfs
 * layer, boot-tests/desktop-initramfs.sh) runs on a DRM device with its
 * pixman renderer, with desktop-shell and weston-simple-shm as clients;
 * then a hog grows:
 *
 *   desktop-pool-hog    the hog is a Wayland client, wl-pool grow: one
 *                       wl_shm pool, a memfd, grown without end and shown
 *                       chunk by chunk, so that weston maps it and draws it
 *   desktop-pool-letgo  the hog is a Wayland client, wl-pool letgo: pools
 *                       of a CHUNK without end, each shown, so that weston
 *                       maps it, and then let go of by the client, which
 *                       keeps only the pool's protocol object: weston alone
 *                       keeps the memory, by mappings the client makes it
 *                       keep, and must not be charged for it
 *   desktop-anon-hog    the hog grows anonymous memory beside the desktop
 *   desktop-pool-score  a client holds a pool of 30% of RAM, drawn and shown
 *                       (wl-pool hold); weston's oom_score, and the
 *                       client's, must be their RSS's share, each pool
 *                       counted once; then the anonymous hog grows
 *   desktop-earlyoom    no weston: Debian's earlyoom, as a desktop runs it,
 *                       picks the victim from /proc/PID/oom_score before
 *                       the kernel's OOM killer must: a bystander maps and
 *                       touches a quarter of RAM, the hog write()s a memfd
 *                       without end, at most 100 MiB/s so that earlyoom's
 *                       polls see memory run low (the victim is the first
 *                       that earlyoom signals; the kernel's OOM killer
 *                       acting first is an error)
 *
 * The victim is the first of the desktop's processes that the OOM killer
 * kills (hog, weston, shell, simple-shm, client).  When it is the hog, the
 * others must live: 10 s later, the OOM killer must have killed none of
 * them, and weston and weston-simple-shm must still run.  Meanwhile it
 * prints how long after the kill the victim had exited and the memory was
 * back: what the victim held may live on in weston's mappings.
 *
 * Without a DRM device weston can use, it runs headless, and says why; a
 * guest without weston (not the desktop guest) skips.  OOMTEST_EXPECT and
 * the exit status are oom-scenario's: 0 when the victim is the one
 * /etc/scenarios expects, 1 when not, 2 when the scenario could not run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "guest.h"
#include "scenario.h"

#define WESTON "/usr/bin/weston"
#define RUNTIME_DIR "/tmp/xdg"
#define MAX_KILLS 16

#define EARLYOOM "/usr/bin/earlyoom"
#define EARLYOOM_LOG "/tmp/earlyoom.log"

enum { WESTON_R, SHELL, SIMPLE_SHM, CLIENT, HOG_R, BYSTANDER_R, EARLYOOM_R, NR };
static const char *const roles[NR] = {
	"weston", "shell", "simple-shm", "client", "hog", "bystander", "earlyoom",
};
static pid_t pid[NR];

static const char *role(pid_t p)
{
	int r;

	for (r = 0; r < NR; r++)
		if (pid[r] && pid[r] == p)
			return roles[r];
	return "other";
}

/* Run @argv at oom_score_adj 0, its output to @log (or a pipe when NULL). */
static pid_t run(char *const argv[], const char *log, int *out)
{
	int fd[2] = { -1, -1 };
	pid_t p;

	if (!log && pipe(fd))
		die("pipe");
	p = fork();
	if (p < 0)
		die("fork");
	if (!p) {
		int o = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644) : fd[1];

		set_oom_score_adj("0");
		dup2(o, 1);
		dup2(o, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (!log) {
		close(fd[1]);
		*out = fd[0];
	}
	return p;
}

/* Print the lines of @path that hold @what, at most @max, prefixed. */
static void grep_log(const char *path, const char *what, int max, const char *prefix)
{
	char line[512];
	FILE *f = fopen(path, "r");

	while (f && max && fgets(line, sizeof(line), f))
		if (strstr(line, what) && max--)
			printf("%s%s", prefix, line);
	if (f)
		fclose(f);
}

/* Weston with @backend; its pid once its socket is there, else 0. */
static pid_t weston_with(const char *backend, const char *log)
{
	char arg[64];
	char *argv[] = { WESTON, arg, "--use-pixman", "--tty=2", "--idle-time=0",
			 "--continue-without-input", "--socket=wayland-0", NULL };
	int i, status;
	pid_t p;

	snprintf(arg, sizeof(arg), "--backend=%s-backend.so", backend);
	p = run(argv, log, NULL);
	for (i = 0; i < 1200; i++) {	/* 120 s: TCG is slow */
		if (!access(RUNTIME_DIR "/wayland-0", F_OK))
			return p;
		if (waitpid(p, &status, WNOHANG) == p) {
			printf("weston: %s backend: %s %d\n", backend,
			       WIFSIGNALED(status) ? "killed by signal" : "exit status",
			       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			return 0;
		}
		usleep(100000);
	}
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	return 0;
}

/* Weston on DRM, or headless with the reason printed. */
static void start_weston(void)
{
	mkdir(RUNTIME_DIR, 0700);
	setenv("XDG_RUNTIME_DIR", RUNTIME_DIR, 1);
	unlink(RUNTIME_DIR "/wayland-0");
	pid[WESTON_R] = weston_with("drm", "/tmp/weston-drm.log");
	if (pid[WESTON_R]) {
		printf("weston: DRM backend, pixman renderer\n");
		grep_log("/tmp/weston-drm.log", "/dev/dri/", 2, "weston: ");
		grep_log("/tmp/weston-drm.log", "DRM: head", 1, "weston: ");
		grep_log("/tmp/weston-drm.log", "Output ", 2, "weston: ");
		return;
	}
	printf("weston: no DRM backend, it said:\n");
	grep_log("/tmp/weston-drm.log", "", 200, "weston: | ");
	printf("weston: falling back to the headless backend\n");
	pid[WESTON_R] = weston_with("headless", "/tmp/weston-headless.log");
	if (!pid[WESTON_R]) {
		grep_log("/tmp/weston-headless.log", "", 200, "weston: | ");
		errno = ENODEV;
		die("weston did not start");
	}
}

/* The pid of the process whose comm is @comm, or 0. */
static pid_t find_comm(const char *comm)
{
	char path[288], name[32];
	struct dirent *d;
	DIR *proc = opendir("/proc");
	pid_t found = 0;
	FILE *f;

	while (proc && !found && (d = readdir(proc))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, comm, strlen(comm)))
			found = atoi(d->d_name);
		fclose(f);
	}
	if (proc)
		closedir(proc);
	return found;
}

/* /proc/@p/status's @key ("VmRSS"), in kB, or 0. */
static long status_kb(pid_t p, const char *key)
{
	char path[64], line[128];
	long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", p);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			kb = atol(line + strlen(key) + 1);
	if (f)
		fclose(f);
	return kb;
}

/*
 * @p's oom_score must be what its RSS, swap and page tables weigh (the
 * OOM killer's badness of a process that holds no file), not more: a
 * pool it maps is counted once, in its RSS.  0 when it is, 1 when not.
 */
static int counted_once(pid_t p)
{
	long total = (meminfo("MemTotal") + meminfo("SwapTotal")) / 1024;
	long kb = status_kb(p, "VmRSS") + status_kb(p, "VmSwap") + status_kb(p, "VmPTE");
	long share = kb * 1000 / total, score = oom_score(p);

	/* oom_score is (1000 + badness * 1000 / totalpages) * 2 / 3. */
	score = score * 3 / 2 - 1000;
	printf("%s: oom_score %ld, RSS+swap+page tables %ld kB: share %ld\n",
	       role(p), score, kb, share);
	if (score <= share + share / 10 + 2)
		return 0;
	printf("error: %s's oom_score is more than its RSS's share: a pool counted twice?\n",
	       role(p));
	return 1;
}

/* Whether @p has exited: a zombie, or gone. */
static int exited(pid_t p)
{
	char path[64], stat[256], *state;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", p);
	f = fopen(path, "r");
	if (!f)
		return 1;
	state = fgets(stat, sizeof(stat), f) ? strrchr(stat, ')') : NULL;
	fclose(f);
	return !state || state[2] == 'Z' || state[2] == 'X';
}

/*
 * For @ms after a kill of @victim, note when it has exited and when the
 * memory is back (MemAvailable over half of RAM), and print both: how long
 * what the victim held lives on after it, in the compositor's mappings.
 */
static void watch_release(pid_t victim, int ms)
{
	long half = meminfo("MemTotal") / 2;
	int t, gone = -1, back = -1;

	for (t = 0; t < ms && (back < 0 || gone < 0); t += 50) {
		if (gone < 0 && exited(victim))
			gone = t;
		if (meminfo("MemAvailable") > half)
			back = t;
		usleep(50000);
	}
	for (; t < ms; t += 500)
		usleep(500000);
	printf("%s: exited %s%d ms after its kill was seen; memory back %s%d ms after\n",
	       role(victim), gone < 0 ? "not within " : "", gone < 0 ? ms : gone,
	       back < 0 ? "not within " : "", back < 0 ? ms : back);
}

/* Wait for a line that starts with @what from @fd (a client's output). */
static void wait_line(int fd, const char *what)
{
	char buf[256];
	FILE *f = fdopen(fd, "r");

	while (f && fgets(buf, sizeof(buf), f)) {
		printf("%s: %s", role(pid[CLIENT]), buf);
		if (!strncmp(buf, what, strlen(what)))
			return;
	}
	errno = EIO;
	die(what);
}

/* The first process that earlyoom's log says it signalled, or 0. */
static pid_t earlyoom_victim(void)
{
	char line[512], *at;
	pid_t victim = 0;
	FILE *f = fopen(EARLYOOM_LOG, "r");

	while (f && !victim && fgets(line, sizeof(line), f)) {
		at = strstr(line, "sending SIGTERM to process ");
		if (!at)
			at = strstr(line, "sending SIGKILL to process ");
		if (at)
			victim = atoi(at + strlen("sending SIGTERM to process "));
	}
	if (f)
		fclose(f);
	return victim;
}

/* A memfd written without end, 1 MiB each 10 ms at most. */
noreturn static void hog_memfd_slow(void)
{
	int fd = memfd_create("hog", 0);

	if (fd < 0)
		die("memfd");
	write_forever(fd, 10000);
}

/*
 * desktop-earlyoom: whom does earlyoom kill first?  Its victim, by role;
 * NULL when the kernel's OOM killer killed one of ours first, or when
 * nothing happened in 300 s.
 */
static const char *earlyoom_scenario(int kmsg)
{
	char *argv[] = { EARLYOOM, "-m", "10", "-s", "100", "-r", "0", NULL };
	pid_t kills[MAX_KILLS], victim = 0;
	int i, nkills = 0, ready[2];
	char c;

	if (access(EARLYOOM, X_OK))
		skip("no earlyoom: not the desktop guest (boot-tests/desktop-packages)");
	if (pipe(ready))
		die("pipe");
	pid[BYSTANDER_R] = fork();
	if (!pid[BYSTANDER_R]) {
		long quarter = meminfo("MemTotal") / 4;
		char *p = mmap(NULL, quarter, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		set_oom_score_adj("0");
		if (p == MAP_FAILED)
			die("bystander's mmap");
		touch(p, quarter);
		if (write(ready[1], "r", 1) != 1)
			die("ready");
		for (;;)
			pause();
	}
	if (read(ready[0], &c, 1) != 1)
		die("the bystander did not get its memory");
	unlink(EARLYOOM_LOG);
	pid[EARLYOOM_R] = run(argv, EARLYOOM_LOG, NULL);
	sleep(2);
	grep_log(EARLYOOM_LOG, "sending SIGTERM when", 1, "earlyoom: ");
	pid[HOG_R] = fork();
	if (!pid[HOG_R]) {
		set_oom_score_adj("0");
		hog_memfd_slow();
	}
	printf("bystander %d, earlyoom %d, hog %d\n", pid[BYSTANDER_R],
	       pid[EARLYOOM_R], pid[HOG_R]);
	for (i = 0; i < 3000 && !victim && !nkills; i++) {
		usleep(100000);
		victim = earlyoom_victim();
		nkills = oom_kills(kmsg, kills, MAX_KILLS);
		while (nkills && !strcmp(role(kills[0]), "other"))
			memmove(kills, kills + 1, --nkills * sizeof(*kills));
	}
	grep_log(EARLYOOM_LOG, "sending ", 4, "earlyoom: ");
	if (nkills && !victim) {
		printf("error: the kernel's OOM killer killed %s before earlyoom acted\n",
		       role(kills[0]));
		return NULL;
	}
	if (!victim) {
		printf("earlyoom signalled no one within 300 s\n");
		return NULL;
	}
	/* Its own line above has the victim's score when it chose. */
	printf("oom_score after the signal: hog %ld, bystander %ld\n",
	       oom_score(pid[HOG_R]), oom_score(pid[BYSTANDER_R]));
	return role(victim);
}

int main(int argc, char **argv)
{
	char *shm_argv[] = { "/usr/bin/weston-simple-shm", NULL };
	char *grow_argv[] = { "/tests/wl-pool", "grow", NULL };
	char *letgo_argv[] = { "/tests/wl-pool", "letgo", NULL };
	char *hold_argv[] = { "/tests/wl-pool", "hold", NULL, NULL };
	const char *kind = getenv("OOMTEST_EXPECT"), *expect = NULL, *victim;
	const char *name = argc == 2 ? argv[1] : "";
	static const int alive[] = { WESTON_R, SIMPLE_SHM };
	pid_t kills[MAX_KILLS];
	int kmsg, nkills = 0, bad = 0, alone = 1, i, out;
	char mib[16];

	if (strcmp(name, "desktop-pool-hog") && strcmp(name, "desktop-pool-letgo") &&
	    strcmp(name, "desktop-anon-hog") &&
	    strcmp(name, "desktop-pool-score") && strcmp(name, "desktop-earlyoom")) {
		fprintf(stderr, "usage: desktop-scenario desktop-pool-hog | desktop-pool-letgo | desktop-anon-hog | desktop-pool-score | desktop-earlyoom\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(WESTON, X_OK))
		skip("no weston: not the desktop guest (boot-tests/desktop-initramfs.sh)");
	if (kind)
		expect = expected_victim("/etc/scenarios", name, kind);
	set_oom_score_adj("-1000");
	kmsg = kmsg_open();

	if (!strcmp(name, "desktop-earlyoom")) {
		victim = earlyoom_scenario(kmsg);
		for (i = 0; i < NR; i++)
			if (pid[i])
				kill(pid[i], SIGKILL);
		while (wait(NULL) > 0)
			;
		if (!victim)
			return 2;
		printf("victim: %s\n", victim);
		if (expect && strcmp(expect, victim)) {
			printf("expected: %s\n", expect);
			return 1;
		}
		return 0;
	}

	start_weston();
	pid[SIMPLE_SHM] = run(shm_argv, "/tmp/simple-shm.log", NULL);
	sleep(5);
	pid[SHELL] = find_comm("weston-desktop-");
	printf("weston %d, shell %d, simple-shm %d\n", pid[WESTON_R], pid[SHELL], pid[SIMPLE_SHM]);

	if (!strcmp(name, "desktop-pool-score")) {
		snprintf(mib, sizeof(mib), "%ld", meminfo("MemTotal") / MIB * 3 / 10);
		hold_argv[2] = mib;
		pid[CLIENT] = run(hold_argv, NULL, &out);
		wait_line(out, "holding");
		sleep(2);
		bad |= counted_once(pid[WESTON_R]);
		bad |= counted_once(pid[CLIENT]);
	}
	unlink("/tmp/wl-pool.log");
	if (!strcmp(name, "desktop-pool-hog")) {
		pid[HOG_R] = run(grow_argv, "/tmp/wl-pool.log", NULL);
	} else if (!strcmp(name, "desktop-pool-letgo")) {
		pid[HOG_R] = run(letgo_argv, "/tmp/wl-pool.log", NULL);
	} else {
		pid[HOG_R] = fork();
		if (!pid[HOG_R]) {
			set_oom_score_adj("0");
			hog_anon(-1);
		}
	}
	printf("hog %d\n", pid[HOG_R]);

	/* The OOM killer's first kill of ours, then 3 s for a second one. */
	for (i = 0; i < 3000 && !nkills; i++) {
		nkills = oom_kills(kmsg, kills, MAX_KILLS);
		while (nkills && !strcmp(role(kills[0]), "other"))
			memmove(kills, kills + 1, --nkills * sizeof(*kills));
		usleep(100000);
	}
	if (!nkills) {
		printf("no one died within 300 s\n");
		return 2;
	}
	/*
	 * 10 s for a second kill: the pool of a dead client lives on in the
	 * compositor's mapping until weston lets the client go.
	 */
	watch_release(kills[0], 10000);
	nkills += oom_kills(kmsg, kills + nkills, MAX_KILLS - nkills);
	victim = role(kills[0]);
	printf("the OOM killer killed:");
	for (i = 0; i < nkills; i++)
		printf(" %s", role(kills[i]));
	printf("\n");
	if (!strcmp(victim, "hog")) {
		for (i = 1; i < nkills; i++)
			alone &= !strcmp(role(kills[i]), "other");
		for (i = 0; i < 2; i++)
			if (waitpid(pid[alive[i]], NULL, WNOHANG)) {
				printf("%s is gone\n", roles[alive[i]]);
				alone = 0;
			}
		if (!alone)
			printf("error: the hog died, but not alone\n");
	}
	grep_log("/tmp/wl-pool.log", "error", 2, "hog: ");
	for (i = 0; i < NR; i++)
		if (pid[i])
			kill(pid[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	printf("victim: %s\n", victim);
	if (expect && strcmp(expect, victim)) {
		printf("expected: %s\n", expect);
		return 1;
	}
	return bad || !alone;
}
