// SPDX-License-Identifier: GPL-2.0
/*
 * stress: every path that charges or uncharges the memory a process
 * allocates through files, at once, for OOMTEST_STRESS_SECONDS (60 by
 * default):
 *
 *   gem       threads creating vgem dumb buffers on two shared DRM files,
 *             filling some through a DMA-buf mapping, and closing handles
 *             that others may be closing too
 *   prime     threads exporting buffers to DMA-bufs and importing them into
 *             the other file
 *   pass      a thread forking children that receive memfds and DMA-heap
 *             buffers over SCM_RIGHTS, write a page into each memfd (a page
 *             charged to a process that then exits), read their fdinfo,
 *             and exit
 *   readers   threads reading every /proc/PID/oom_score, status and fdinfo
 *   fdtable   two threads moving a probe memfd through the fd tables every
 *             way there is: dup2(), dup3(), F_DUPFD_CLOEXEC, close_range(),
 *             fork(), unshare(CLONE_FILES), execve(), clone(CLONE_FILES),
 *             SCM_RIGHTS, each with its children exiting meanwhile
 *
 * At the end all handles are closed and this process's FilesCharged must
 * be the probe memfd's pages exactly: every buffer it created and every
 * memfd page it wrote and let go was uncharged, and none of the fd-table
 * moves changed the probe's charge (the kernel warns if an object
 * uncharged more than it charged, or a ledger was freed with pages
 * charged, which the boot test's log check catches).  And the probe, held by this process alone again, must
 * weigh in its oom_score as much as a new memfd of its size.  Exits 0 when
 * the counts are right, 1 when not, 2 on a setup error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include "guest.h"

static atomic_bool stop;
static int drm[2], heap, probe;
static atomic_long ops[5];
enum { GEM, PRIME, PASS, READ, FDTABLE };

#define SYSCTL "/proc/sys/vm/oom_file_badness"
/* The fds the fdtable threads play with: 256 each, above all others. */
#define FDTABLE_FDS 512

/* Read /proc/PID/fdinfo/FD, as top-like tools do; what it says is not checked. */
static void read_fdinfo(pid_t pid, int fd)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		;
	fclose(f);
}

/* FilesCharged of /proc/self/status, in kB, or -1 without it. */
static long files_charged(void)
{
	char line[256];
	long val = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		die("/proc/self/status");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "FilesCharged: %ld kB", &val) == 1)
			break;
	fclose(f);
	return val;
}

/* Fill @pages of buffer @h through a mapping of its DMA-buf. */
static void gem_fill(int fd, __u32 h, long pages)
{
	struct drm_prime_handle prime = {
		.handle = h, .flags = DRM_CLOEXEC | DRM_RDWR,
	};
	char *p;

	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
		return;	/* Another thread closed it: fine. */
	p = mmap(NULL, pages * page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 prime.fd, 0);
	if (p != MAP_FAILED) {
		touch(p, pages * page_size);
		munmap(p, pages * page_size);
	}
	close(prime.fd);
}

/* Create buffers, close them, and close handles the others may own. */
static void *gem_thread(void *arg)
{
	unsigned int seed = (unsigned long)arg;
	int fd = drm[seed & 1];

	while (!stop) {
		long pages = 1 + rand_r(&seed) % 64;
		__u32 h = gem_create(fd, pages);

		/* Fill only what is closed now: the rest piles up to the end. */
		if (h && rand_r(&seed) % 4) {
			if (rand_r(&seed) % 2)
				gem_fill(fd, h, pages);
			gem_close(fd, h);
		}
		/* A handle of another thread, or none: EINVAL is fine. */
		gem_close(fd, 1 + rand_r(&seed) % 256);
		ops[GEM]++;
	}
	return NULL;
}

/* Export to a DMA-buf, import into the other file, drop both. */
static void *prime_thread(void *arg)
{
	unsigned int seed = (unsigned long)arg;

	while (!stop) {
		struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
		struct drm_prime_handle imp = {};
		int from = rand_r(&seed) & 1;

		exp.handle = gem_create(drm[from], 1 + rand_r(&seed) % 32);
		if (!exp.handle)
			continue;
		if (!ioctl(drm[from], DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp)) {
			imp.fd = exp.fd;
			if (!ioctl(drm[!from], DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp))
				gem_close(drm[!from], imp.handle);
			close(exp.fd);
		}
		gem_close(drm[from], exp.handle);
		ops[PRIME]++;
	}
	return NULL;
}

/* The child: take the fds, look at them, go. */
static void receiver(int sock)
{
	int fds[MAX_SEND_FDS], i, n;

	n = recv_fds(sock, fds, MAX_SEND_FDS);
	if (n < 1)
		_exit(1);
	for (i = 0; i < n; i++) {
		read_fdinfo(getpid(), fds[i]);
		/* A page of ours in the sender's memfd, left there. */
		if (pwrite(fds[i], &sock, sizeof(sock), 8 * page_size) < 0 &&
		    errno != EINVAL && errno != ESPIPE)
			_exit(1);
	}
	_exit(0);
}

static void *pass_thread(void *arg)
{
	char buf[4096];

	memset(buf, 1, sizeof(buf));
	while (!stop) {
		struct dma_heap_allocation_data data = {
			.len = 16 * page_size, .fd_flags = O_RDWR | O_CLOEXEC,
		};
		int sv[2], fds[2], n = 0, i;
		pid_t child;

		fds[n] = memfd_create("pass", MFD_CLOEXEC);
		if (fds[n] >= 0) {
			for (i = 0; i < 8; i++)
				if (write(fds[n], buf, sizeof(buf)) < 0)
					break;
			n++;
		}
		if (heap >= 0 && !ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &data))
			fds[n++] = data.fd;
		if (!n || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			continue;
		child = fork();
		if (child == 0)
			receiver(sv[1]);
		if (child > 0) {
			send_fds(sv[0], fds, n);
			waitpid(child, NULL, 0);
		}
		for (i = 0; i < n; i++)
			close(fds[i]);
		close(sv[0]);
		close(sv[1]);
		ops[PASS]++;
	}
	return NULL;
}

static void read_file(const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* Every oom_score and every fdinfo, again and again. */
static void *reader_thread(void *arg)
{
	char path[2 * NAME_MAX + 32];

	while (!stop) {
		DIR *proc = opendir("/proc");
		struct dirent *p, *f;

		if (!proc)
			die("/proc");
		while ((p = readdir(proc)) && !stop) {
			DIR *fdinfo;

			if (p->d_name[0] < '0' || p->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/oom_score", p->d_name);
			read_file(path);
			snprintf(path, sizeof(path), "/proc/%s/status", p->d_name);
			read_file(path);
			snprintf(path, sizeof(path), "/proc/%s/fdinfo", p->d_name);
			fdinfo = opendir(path);
			if (!fdinfo)
				continue;
			while ((f = readdir(fdinfo))) {
				snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s",
					 p->d_name, f->d_name);
				read_file(path);
			}
			closedir(fdinfo);
		}
		closedir(proc);
		ops[READ]++;
	}
	return NULL;
}

/*
 * Move the probe memfd through fd tables, in fds [@lo, @lo + 256) of ours
 * and in children: every way the fd-table code keeps a count of.
 */
static void *fdtable_thread(void *arg)
{
	unsigned int seed = (unsigned long)arg;
	int lo = FDTABLE_FDS + ((unsigned long)arg & 1) * 256;

	while (!stop) {
		int fd = lo + rand_r(&seed) % 200, sv[2];
		pid_t child = 0;

		switch (rand_r(&seed) % 7) {
		case 0:
			dup2(probe, fd);
			dup3(probe, fd + 1, O_CLOEXEC);
			dup2(drm[0], fd);	/* replaces a holding slot */
			close_range(fd, fd + 1, 0);
			break;
		case 1:
			close(fcntl(probe, F_DUPFD_CLOEXEC, fd));
			break;
		case 2:		/* a child that unshares its table, then closes */
			child = fork();
			if (!child) {
				dup2(probe, fd);
				if (rand_r(&seed) & 1)
					unshare(CLONE_FILES);
				else
					close_range(fd, fd, CLOSE_RANGE_UNSHARE);
				close(probe);
				_exit(0);
			}
			break;
		case 3:		/* a child that keeps it across execve() */
			child = fork();
			if (!child) {
				dup2(probe, fd);
				execl("/bin/busybox", "true", NULL);
				_exit(1);
			}
			break;
		case 4:		/* a child sharing our table: its fds are ours */
			child = syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0, NULL, NULL, 0);
			if (!child) {
				dup2(probe, fd);
				close(fd);
				dup2(probe, fd + 2);
				_exit(0);	/* fd + 2 stays, in our table */
			}
			break;
		case 5:		/* SCM_RIGHTS to a child that keeps a dup */
			if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
				break;
			child = fork();
			if (!child) {
				int got = recv_fd(sv[1]);

				if (got >= 0)
					dup2(got, fd);
				_exit(0);
			}
			if (child > 0)
				send_fd(sv[0], probe);
			close(sv[0]);
			close(sv[1]);
			break;
		case 6:
			close_range(lo, lo + 255, 0);
			break;
		}
		if (child > 0)
			waitpid(child, NULL, 0);
		ops[FDTABLE]++;
	}
	return NULL;
}

/* The part of our oom_score that our files make: on less off. */
static long files_share(void)
{
	long off, on;

	write_file(SYSCTL, "0");
	off = oom_score(getpid());
	write_file(SYSCTL, "1");
	on = oom_score(getpid());
	return on - off;
}

/* A memfd of @size bytes, written. */
static int memfd_of(long size)
{
	int fd = memfd_create("probe", 0);
	char buf[4096];
	long i;

	if (fd < 0)
		die("memfd");
	memset(buf, 1, sizeof(buf));
	for (i = 0; i < size; i += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			die("write to memfd");
	return fd;
}

int main(void)
{
	const char *s = getenv("OOMTEST_STRESS_SECONDS");
	int seconds = s ? atoi(s) : 60, i, fail = 0;
	void *(*fn[])(void *) = {
		gem_thread, gem_thread, prime_thread, pass_thread,
		reader_thread, reader_thread, fdtable_thread, fdtable_thread,
	};
	pthread_t t[sizeof(fn) / sizeof(fn[0])];
	long size = meminfo("MemTotal") / 16, share, fresh, charged, want;
	__u32 h;

	setvbuf(stdout, NULL, _IOLBF, 0);
	drm[0] = open_card("vgem", NULL, 0);
	drm[1] = open_card("vgem", NULL, 0);
	if (drm[0] < 0 || drm[1] < 0)
		skip("no vgem card (CONFIG_DRM_VGEM)");
	heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);
	probe = memfd_of(size);
	for (i = 0; i < (int)(sizeof(fn) / sizeof(fn[0])); i++)
		if (pthread_create(&t[i], NULL, fn[i], (void *)(long)(i + 1)))
			die("pthread_create");
	sleep(seconds);
	stop = true;
	for (i = 0; i < (int)(sizeof(fn) / sizeof(fn[0])); i++)
		pthread_join(t[i], NULL);
	while (wait(NULL) > 0)
		;
	printf("%d s: %ld GEM create/close, %ld PRIME round trips, %ld fd passes, %ld /proc sweeps, %ld fd-table moves\n",
	       seconds, ops[GEM], ops[PRIME], ops[PASS], ops[READ], ops[FDTABLE]);

	/* Close every handle left; then only the probe may be charged. */
	for (i = 0; i < 2; i++)
		for (h = 1; h < 1u << 16; h++)
			gem_close(drm[i], h);
	close_range(FDTABLE_FDS, ~0U, 0);
	charged = files_charged();
	want = (size + page_size - 1) / page_size * (page_size / 1024);
	printf("FilesCharged after closing every handle: %ld kB, the probe's pages: %ld kB\n",
	       charged, want);
	if (charged != want)
		fail = 1;

	/* The probe, in no fd of ours but its own: it counts as one new. */
	share = files_share();
	close(probe);
	probe = memfd_of(size);
	fresh = files_share();
	printf("probe memfd: %ld in oom_score after the moves, %ld for a new one\n",
	       share, fresh);
	if (fresh <= 0 || labs(share - fresh) > 1)
		fail = 1;
	return fail;
}
