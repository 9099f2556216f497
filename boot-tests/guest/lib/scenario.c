// SPDX-License-Identifier: GPL-2.0
/*
 * The OOM scenarios of the boot-test guest: see scenario.h.
 *
 *   memfd-hog       write() to a memfd without end
 *   dmabuf-hog      DMA-bufs of the system heap, fds kept
 *   gem-hog         vgem dumb buffers, touched through their PRIME DMA-buf
 *   gem-hog-virtio  the same with virtio-gpu, a real driver whose objects
 *                   are drm_gem_shmem ones with pages from creation on
 *   gem-client-hog  a GPU client as Mesa is one: vgem dumb buffers mapped
 *                   through the DRM file and kept mapped, and eight threads
 *                   waiting in read() on that file
 *   memfd-shared    the memfd hog, which first hands its memfd to the
 *                   bystander over SCM_RIGHTS (a Wayland client handing its
 *                   wl_shm pool to the compositor)
 *   memfd-parking-hog  8 MiB memfds, each written, sent over SCM_RIGHTS
 *                   into a socket of the hog's own that no one reads, and
 *                   closed: the hog holds them in flight only
 *   memfd-mapping-hog  8 MiB memfds, each written, mapped shared and never
 *                   touched, and closed: the hog holds them by the mappings
 *                   alone, none of their pages in its RSS
 *   memfd-sparse    the memfd hog; the bystander is handed a 4 GiB memfd,
 *                   ftruncate'd and never written: it must not be framed
 *   gem-churn       the GEM hog, and a churner creating, touching and
 *                   freeing 1 MiB vgem buffers in a loop
 *   shm-client      the bystander is a Wayland-like client with a wl_shm
 *                   pool of 40% of RAM, a memfd it maps, has drawn into and
 *                   keeps; the hog grows anonymous memory: its pages are in
 *                   the RSS of each, and only there
 *   gem-hog-poller  the GEM hog, and a process reading every oom_score in
 *                   /proc every 50 ms, as earlyoom or a monitoring agent
 *                   does: the OOM killer must kill the hog alone, not a
 *                   second victim while the hog's buffers are being freed
 *   memcg-dmabuf    in a memory cgroup of 128 MiB: the bystander holds a
 *                   160 MiB DMA-buf of the system heap (charged to no
 *                   cgroup), the hog grows anonymous memory (charged to
 *                   the cgroup): killing the hog alone ends the OOM
 *   memcg-memfd     in a memory cgroup of 192 MiB: the memfd hog, whose
 *                   pages are charged to the cgroup, beside a bystander
 *                   with a quarter of the cgroup's memory
 *   memcg-gem       in a memory cgroup of 192 MiB: a vgem hog, whose
 *                   buffers' pages, which it populates itself, are
 *                   charged to the cgroup, beside the same bystander;
 *                   refused a buffer at the cgroup's limit, it falls back
 *                   to anonymous memory, whose fault calls the cgroup's OOM
 *   gem-compositor  a GPU client hands each vgem buffer it allocates to
 *                   a compositor, the bystander, as a DMA-buf; the
 *                   compositor imports it into its own DRM file, keeps
 *                   the handle and drops them all when the client goes:
 *                   the client must die, alone, not the compositor
 *   gem-vram-holder the hog grows anonymous memory; the bystander holds a
 *                   quarter of RAM and bochs (TTM) buffers of twice RAM
 *                   that TTM never populated: they hold no system memory,
 *                   and must not make it the victim
 *   oom-decoys      the hog grows anonymous memory, beside four decoys at
 *                   oom_score_adj 1000, each holding a page of a memfd:
 *                   they die first, and the OOM killer must not hold back
 *                   for their files before it kills the hog
 *   oom-decoys-handoff  the same, but each decoy writes a 32 MiB memfd,
 *                   hands it to the bystander and closes it: killing a
 *                   decoy frees nothing, and the OOM killer may hold back
 *                   for it, within its bound; an OOM hands the decoys'
 *                   charges to the bystander, which keeps the memfds
 *                   beside an eighth of RAM of its own
 *   memcg-siblings  the hog grows anonymous memory outside any memory
 *                   cgroup, while in each of two sibling cgroups of 64 MiB
 *                   a holder of a 40 MiB memfd is killed by the cgroup's
 *                   OOM, again and again: those kills must not hold the
 *                   system's OOM back
 *   broker-client   the allocator is a broker: again and again it writes
 *                   an 8 MiB memfd, hands it to the hog, its client, and
 *                   closes it; the hog keeps them all, by fds alone
 *   exit-handoff    the allocator forks, again and again, a child that
 *                   writes a 32 MiB memfd, hands it to the hog and exits
 *   gem-session-manager  the allocator is a session manager, as
 *                   systemd-logind is one: it opens the vgem card and
 *                   hands the fd to the hog, a compositor (TakeDevice),
 *                   keeping its own copy of the one struct file; the hog
 *                   creates vgem buffers through it without end.  The
 *                   manager closes its copy once the hog is gone, as logind
 *                   does when the session's controller leaves the bus
 *   gem-scanout-hog virtio-gpu dumb buffers, each written, made a
 *                   framebuffer (ADDFB2, which needs no DRM master) and
 *                   its handle closed: the framebuffers alone keep them
 *   gem-ttm-hog     bochs dumb buffers (drm_gem_vram, TTM), each written
 *                   through a mapping, which populates its ttm_tt with
 *                   system pages; past TTM's limit of half of RAM, TTM
 *                   swaps the oldest out to its shmem storage, which
 *                   takes RAM until the small swap device takes it
 *
 * None of what the hogs allocate through files is in their RSS.  The
 * bystander of the others maps and touches a quarter of RAM (of the
 * cgroup's memory, in a memory cgroup).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <drm/drm.h>
#include <dirent.h>
#include <drm/drm_mode.h>
#include "guest.h"
#include "scenario.h"

static const char *const role_names[NROLES] = {
	"bystander", "hog", "churner", "poller", "allocator",
};

/* The decoys and the sibling cgroups' drivers of the scenario running. */
#define MAX_EXTRAS 8
static pid_t decoy_pids[MAX_EXTRAS], sibling_pids[MAX_EXTRAS];
/* Where a decoy says it is ready. */
static int ready_fd = -1;

/* The memory cgroup of the scenario running, or "" when it has none. */
static char memcg_path[128];
/* Its memory.max, 0 when it has none. */
static long memcg_max;

/* Send @fd to the bystander and wait until it holds it. */
static void hand_over(int share, int fd)
{
	char c;

	send_fd(share, fd);
	if (read(share, &c, 1) != 1)
		die("the bystander did not take the fd");
}

noreturn static void hog_memfd(int share)
{
	int fd = memfd_create("hog", 0);

	if (fd < 0)
		die("memfd");
	if (share >= 0)
		hand_over(share, fd);
	write_forever(fd, 0);
}

/* A memfd of @size bytes, written; -1 when memory ran out. */
static int memfd_written(long size)
{
	static char *buf;
	int fd = memfd_create("hog", MFD_CLOEXEC);
	long done;

	if (!buf) {
		buf = malloc(MIB);
		if (!buf)
			die("malloc");
		memset(buf, 0x5a, MIB);
	}
	if (fd < 0) {
		if (errno == ENOMEM || errno == EMFILE)
			return -1;
		die("memfd_create");
	}
	for (done = 0; done < size; done += MIB)
		if (write(fd, buf, MIB) != MIB) {
			if (errno != ENOMEM && errno != EINTR && errno != ENOSPC)
				die("write to memfd");
			break;
		}
	return fd;
}

/* Send @fd over @sock without blocking: 0, or -1 when the socket is full. */
static int send_fd_nonblock(int sock, int fd)
{
	if (sendmsg_fds(sock, &fd, 1, MSG_DONTWAIT) == 1)
		return 0;
	if (errno == EAGAIN || errno == ENOBUFS || errno == ENOMEM || errno == EINTR)
		return -1;
	die("SCM_RIGHTS to our own socket");
}

/*
 * Park each memfd in a socket of our own, in flight for good, then close
 * it: a socket takes a few hundred messages before send() would block, so
 * a full one is kept and a new pair made.
 */
noreturn static void hog_memfd_parking(int share)
{
	int sv[2] = { -1, -1 }, fd;

	for (;;) {
		fd = memfd_written(8 * MIB);
		if (fd < 0)
			continue;
		while (sv[0] < 0 || send_fd_nonblock(sv[0], fd)) {
			/* The old pair stays open: its messages hold memfds. */
			if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
				die("socketpair");
		}
		close(fd);
	}
}

/* Map each memfd shared, touch nothing, close it: the mapping holds it. */
noreturn static void hog_memfd_mapping(int share)
{
	for (;;) {
		int fd = memfd_written(8 * MIB);

		if (fd < 0)
			continue;
		if (mmap(NULL, 8 * MIB, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED &&
		    errno != ENOMEM)
			die("mmap of a memfd");
		close(fd);
	}
}

noreturn static void hog_dmabuf(int share)
{
	int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);

	if (heap < 0)
		die("/dev/dma_heap/system");
	for (;;) {
		struct dma_heap_allocation_data data = {
			.len = CHUNK, .fd_flags = O_RDWR | O_CLOEXEC,
		};

		/* Keep the fds: they hold the buffers. */
		if (ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &data) && errno != ENOMEM &&
		    errno != EINTR)
			die("DMA_HEAP_IOCTL_ALLOC");
	}
}

/* Dumb buffers of @driver's card, touched through their PRIME DMA-buf. */
noreturn static void hog_gem_of(const char *driver)
{
	int fd = open_card(driver, NULL, 0);

	if (fd < 0)
		die(driver);
	for (;;)
		gem_buffer(fd, CHUNK);
}

noreturn static void hog_gem(int share)
{
	hog_gem_of("vgem");
}

noreturn static void hog_gem_virtio(int share)
{
	hog_gem_of("virtio_gpu");
}

/*
 * A dumb buffer of @size bytes on DRM file @fd, mapped through the file
 * (MAP_DUMB): the mapping, or NULL when there was no memory for it.
 */
static char *dumb_map(int fd, long size)
{
	struct drm_mode_map_dumb map = {
		.handle = gem_create(fd, size / page_size),
	};
	char *p;

	if (!map.handle)
		return NULL;
	if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		die("DRM_IOCTL_MODE_MAP_DUMB");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map.offset);
	if (p != MAP_FAILED)
		return p;
	if (errno != ENOMEM)
		die("mmap of a dumb buffer");
	return NULL;
}

/*
 * bochs dumb buffers, touched through the card's own mapping: bochs has no
 * PRIME on every kernel.
 */
noreturn static void hog_gem_ttm(int share)
{
	int fd = open_card("bochs-drm", NULL, 0);

	if (fd < 0)
		die("no bochs card");
	for (;;) {
		char *p = dumb_map(fd, CHUNK);

		if (!p)
			continue;
		/* The pages stay with the buffer, out of our RSS. */
		touch(p, CHUNK);
		munmap(p, CHUNK);
	}
}

static void *wait_on_drm(void *arg)
{
	char buf[64];

	/* No DRM event comes: blocked here, holding a reference to the file. */
	for (;;)
		if (read(*(int *)arg, buf, sizeof(buf)) < 0 && errno != EINTR)
			die("read of the DRM file");
	return NULL;
}

noreturn static void hog_gem_client(int share)
{
	static int fd;
	pthread_t t;
	int i;

	fd = open_card("vgem", NULL, 0);
	if (fd < 0)
		die("no vgem card");
	for (i = 0; i < 8; i++)
		if (pthread_create(&t, NULL, wait_on_drm, &fd))
			die("pthread_create");
	for (;;) {
		/* vgem allocates the pages inside mmap() of the DRM file. */
		char *p = dumb_map(fd, CHUNK);

		/* Kept mapped, as a driver's buffer cache keeps them. */
		if (p)
			touch(p, CHUNK);
	}
}

/* A GPU client that hands each buffer to the compositor on @share. */
noreturn static void hog_gem_shared(int share)
{
	int fd = open_card("vgem", NULL, 0);

	if (fd < 0)
		die("no vgem card");
	for (;;) {
		struct drm_prime_handle prime = {
			.handle = gem_buffer(fd, CHUNK),
			.flags = DRM_CLOEXEC | DRM_RDWR,
		};

		if (!prime.handle)
			continue;
		if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime)) {
			if (errno == ENOMEM || errno == EINTR)
				continue;
			die("DRM_IOCTL_PRIME_HANDLE_TO_FD");
		}
		hand_over(share, prime.fd);
		close(prime.fd);
	}
}

noreturn void hog_anon(int share)
{
	for (;;) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED)
			touch(p, CHUNK);
	}
}

/*
 * vgem buffers, touched through their PRIME DMA-buf, until the cgroup
 * refuses one: GEM's shmem pages are allocated with __GFP_RETRY_MAYFAIL,
 * which fails rather than call the cgroup's OOM killer.  Then, as a client
 * would fall back, CHUNK of anonymous memory, whose fault does.
 */
noreturn static void hog_gem_memcg(int share)
{
	int fd = open_card("vgem", NULL, 0);

	if (fd < 0)
		die("no vgem card");
	for (;;) {
		struct drm_prime_handle prime = {
			.handle = gem_create(fd, CHUNK / page_size),
			.flags = DRM_CLOEXEC | DRM_RDWR,
		};
		char *p;

		if (!prime.handle)
			die("a vgem dumb buffer");
		if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
			die("DRM_IOCTL_PRIME_HANDLE_TO_FD");
		p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_SHARED,
			 prime.fd, 0);
		close(prime.fd);
		if (p != MAP_FAILED) {
			touch(p, CHUNK);
			munmap(p, CHUNK);
			continue;
		}
		if (errno != ENOMEM)
			die("mmap of a vgem buffer's DMA-buf");
		if (gem_close(fd, prime.handle))
			die("DRM_IOCTL_GEM_CLOSE");
		p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			touch(p, CHUNK);
	}
}

/* Keep every fd sent to us on @share, and say so (see hand_over()). */
noreturn static void keep_fds(int share)
{
	while (recv_fd(share) >= 0)
		if (write(share, "k", 1) != 1)
			die("ack");
	for (;;)
		pause();
}

/* Tell the starter we hold our memory; then keep every fd sent to us. */
noreturn static void ready_and_keep(int share)
{
	if (write(share, "r", 1) != 1)
		die("ready");
	keep_fds(share);
}

/* The hog that keeps what its allocator hands it, and allocates nothing. */
noreturn static void hog_keeper(int share)
{
	keep_fds(share);
}

/*
 * A broker, as gralloc or a portal is one: again and again, an 8 MiB memfd,
 * written, handed to the hog on @share and closed.
 */
noreturn static void broker(int share)
{
	for (;;) {
		int fd = memfd_written(8 * MIB);

		if (fd < 0)
			continue;
		hand_over(share, fd);
		close(fd);
	}
}

/*
 * Allocators that exit: again and again, a child writes a 32 MiB memfd,
 * hands it to the hog on @share and exits.
 */
noreturn static void allocator_exits(int share)
{
	for (;;) {
		pid_t pid = fork();
		int fd;

		if (pid < 0) {
			usleep(10000);
			continue;
		}
		if (!pid) {
			fd = memfd_written(32 * MIB);
			if (fd >= 0)
				hand_over(share, fd);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
}

/* Map and touch a @part of RAM, or of the scenario's memory cgroup. */
static void hold_part(int part)
{
	long size = (memcg_max ?: meminfo("MemTotal")) / part;
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("bystander's mmap");
	touch(p, size);
}

noreturn static void bystander_anon(int share)
{
	hold_part(4);
	ready_and_keep(share);
}

/* A bystander with an eighth of RAM, which keeps what the decoys hand it. */
noreturn static void bystander_keeper(int share)
{
	hold_part(8);
	ready_and_keep(share);
}

noreturn static void bystander_shm(int share)
{
	long size = meminfo("MemTotal") / 10 * 4;
	int fd = memfd_create("wl_shm", MFD_CLOEXEC);
	char *p;

	if (fd < 0 || ftruncate(fd, size))
		die("wl_shm pool");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap of the wl_shm pool");
	touch(p, size);
	ready_and_keep(share);
}

noreturn static void bystander_dmabuf(int share)
{
	struct dma_heap_allocation_data data = {
		.len = 160 * MIB, .fd_flags = O_RDWR | O_CLOEXEC,
	};
	int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);

	if (heap < 0 || ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &data))
		die("a DMA-buf of 160 MiB");
	ready_and_keep(share);
}

/*
 * A compositor: a quarter of RAM of its own, and every buffer its client
 * sends imported into its DRM file, as a handle kept until the client's
 * connection closes.
 */
noreturn static void bystander_compositor(int share)
{
	int card = open_card("vgem", NULL, 0), n = 0, fd;
	static unsigned int handles[4096];

	if (card < 0)
		die("no vgem card");
	hold_part(4);
	if (write(share, "r", 1) != 1)
		die("ready");
	while ((fd = recv_fd(share)) >= 0) {
		struct drm_prime_handle prime = { .fd = fd };

		if (ioctl(card, DRM_IOCTL_PRIME_FD_TO_HANDLE, &prime))
			die("DRM_IOCTL_PRIME_FD_TO_HANDLE");
		close(fd);
		if (n == sizeof(handles) / sizeof(*handles))
			die("too many buffers");
		handles[n++] = prime.handle;
		if (write(share, "k", 1) != 1)
			die("ack");
	}
	/* The client is gone: release its buffers, as wl_buffer.destroy. */
	while (n--)
		gem_close(card, handles[n]);
	for (;;)
		pause();
}

/*
 * A quarter of RAM, and bochs dumb buffers of twice RAM, 16 MiB each, never
 * drawn into: TTM has populated no page of them.
 */
noreturn static void bystander_vram(int share)
{
	int card = open_card("bochs-drm", NULL, 0);
	long n = meminfo("MemTotal") * 2 / (16 * MIB);

	if (card < 0)
		die("no bochs card");
	hold_part(4);
	while (n--)
		if (!gem_create(card, 16 * MIB / page_size))
			die("a bochs dumb buffer of 16 MiB");
	ready_and_keep(share);
}

/*
 * A decoy: at oom_score_adj 1000, the first victim; it holds a memfd of
 * @decoy_size written, or, handing off, hands it to the bystander on @share
 * and closes it.
 */
static long decoy_size;

noreturn static void decoy(int share)
{
	int fd;

	set_oom_score_adj("1000");
	fd = memfd_written(decoy_size);
	if (fd < 0)
		die("a decoy's memfd");
	if (share >= 0) {
		hand_over(share, fd);
		close(fd);
	}
	if (write(ready_fd, "r", 1) != 1)
		die("decoy ready");
	for (;;)
		pause();
}

static pid_t start(void (*fn)(int), int share);

/* A holder of a 40 MiB memfd, in a sibling cgroup of 64 MiB. */
noreturn static void sibling_holder(int ready)
{
	if (memfd_written(40 * MIB) < 0 || write(ready, "r", 1) != 1)
		die("a sibling's holder");
	for (;;)
		pause();
}

/*
 * The driver of a sibling cgroup, unkillable in it: again and again, a
 * holder of a 40 MiB memfd and, once it holds it, an anonymous hog that
 * fills the cgroup until its OOM kills one of them (the holder, where its
 * memfd counts); then the other goes too, and it starts over.
 */
noreturn static void sibling(int share)
{
	int p[2];
	pid_t holder, grower, dead;
	char c;

	for (;;) {
		if (pipe(p))
			die("pipe");
		holder = start(sibling_holder, p[1]);
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			die("the sibling's holder did not get ready");
		close(p[0]);
		grower = start(hog_anon, -1);
		dead = wait(NULL);
		kill(dead == holder ? grower : holder, SIGKILL);
		while (wait(NULL) > 0)
			;
	}
}

/* Read every /proc/PID/oom_score, every 50 ms. */
noreturn static void poll_proc(int share)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	for (;;) {
		dir = opendir("/proc");
		if (!dir)
			die("/proc");
		while ((d = readdir(dir)))
			if (d->d_name[0] >= '1' && d->d_name[0] <= '9') {
				snprintf(path, sizeof(path), "/proc/%ld/oom_score",
					 atol(d->d_name));
				proc_long(path);
			}
		closedir(dir);
		usleep(50000);
	}
}

/*
 * A session manager: hand the card's fd to the compositor on @share, keep
 * a copy, and close it once the compositor is gone (the socket's end).
 */
noreturn static void session_manager(int share)
{
	int card = open_card("vgem", NULL, 0);
	ssize_t n;
	char c;

	if (card < 0)
		die("no vgem card");
	send_fd(share, card);
	do
		n = read(share, &c, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	close(card);
	for (;;)
		pause();
}

/* A compositor: buffers through the card fd its session manager handed it. */
noreturn static void hog_gem_session(int share)
{
	int card = recv_fd(share);

	if (card < 0)
		die("the session manager's card fd");
	for (;;)
		gem_buffer(card, CHUNK);
}

/* Buffers kept by framebuffers alone, their handles closed. */
noreturn static void hog_gem_scanout(int share)
{
	int card = open_card("virtio_gpu", NULL, 0);

	if (card < 0)
		die("no virtio_gpu card");
	for (;;) {
		struct drm_mode_fb_cmd2 fb = {
			.width = page_size / 4, .height = CHUNK / page_size,
			.pixel_format = 0x34325258,	/* DRM_FORMAT_XRGB8888 */
			.pitches = { page_size },
		};

		fb.handles[0] = gem_buffer(card, CHUNK);
		if (!fb.handles[0])
			continue;
		if (ioctl(card, DRM_IOCTL_MODE_ADDFB2, &fb) && errno != ENOMEM &&
		    errno != EINTR)
			die("DRM_IOCTL_MODE_ADDFB2");
		if (gem_close(card, fb.handles[0]))
			die("DRM_IOCTL_GEM_CLOSE");
	}
}

noreturn static void churn_gem(int share)
{
	int fd = open_card("vgem", NULL, 0);

	if (fd < 0)
		die("no vgem card");
	for (;;) {
		unsigned int handle = gem_buffer(fd, MIB);

		if (handle && gem_close(fd, handle))
			die("DRM_IOCTL_GEM_CLOSE");
	}
}

static const struct scenario scenarios[] = {
	{ "memfd-hog", hog_memfd, bystander_anon },
	{ "dmabuf-hog", hog_dmabuf, bystander_anon },
	{ "gem-hog", hog_gem, bystander_anon, .card = "vgem" },
	{ "gem-hog-virtio", hog_gem_virtio, bystander_anon, .card = "virtio_gpu" },
	{ "gem-client-hog", hog_gem_client, bystander_anon, .card = "vgem" },
	{ "memfd-shared", hog_memfd, bystander_anon, .shared = 1 },
	{ "memfd-parking-hog", hog_memfd_parking, bystander_anon },
	{ "memfd-mapping-hog", hog_memfd_mapping, bystander_anon },
	{ "memfd-sparse", hog_memfd, bystander_anon, .sparse = 4096 * MIB },
	{ "gem-churn", hog_gem, bystander_anon, .churner = churn_gem, .card = "vgem" },
	{ "shm-client", hog_anon, bystander_shm },
	{ "gem-hog-poller", hog_gem, bystander_anon, .poller = 1, .one_kill = 1,
	  .card = "vgem" },
	{ "memcg-dmabuf", hog_anon, bystander_dmabuf, .memcg = 128 * MIB, .one_kill = 1 },
	{ "memcg-memfd", hog_memfd, bystander_anon, .memcg = 192 * MIB, .one_kill = 1 },
	{ "memcg-gem", hog_gem_memcg, bystander_anon, .memcg = 192 * MIB, .one_kill = 1,
	  .card = "vgem" },
	{ "gem-compositor", hog_gem_shared, bystander_compositor, .shared = 1,
	  .one_kill = 1, .card = "vgem" },
	{ "gem-vram-holder", hog_anon, bystander_vram, .card = "bochs-drm" },
	{ "oom-decoys", hog_anon, bystander_anon, .decoys = 4, .decoy_size = 4096,
	  .no_holdback = 1 },
	{ "oom-decoys-handoff", hog_anon, bystander_keeper, .decoys = 4,
	  .decoy_size = 32 * MIB, .decoy_handoff = 1 },
	{ "memcg-siblings", hog_anon, bystander_anon, .siblings = 2 },
	{ "broker-client", hog_keeper, bystander_anon, .allocator = broker },
	{ "exit-handoff", hog_keeper, bystander_anon, .allocator = allocator_exits },
	{ "gem-session-manager", hog_gem_session, bystander_anon,
	  .allocator = session_manager, .card = "vgem" },
	{ "gem-scanout-hog", hog_gem_scanout, bystander_anon, .card = "virtio_gpu" },
	{ "gem-ttm-hog", hog_gem_ttm, bystander_anon, .card = "bochs-drm" },
};

const struct scenario *scenario_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(scenarios) / sizeof(*scenarios); i++)
		if (!strcmp(name, scenarios[i].name))
			return &scenarios[i];
	return NULL;
}

const char *scenario_names(void)
{
	static char names[512];
	size_t i;

	for (i = 0; i < sizeof(scenarios) / sizeof(*scenarios); i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", i ? " | " : "", scenarios[i].name);
	return names;
}

const char *role_of(const pid_t pids[NROLES], pid_t pid)
{
	int r;

	for (r = 0; r < NROLES; r++)
		if (pids[r] && pids[r] == pid)
			return role_names[r];
	for (r = 0; r < MAX_EXTRAS; r++) {
		if (decoy_pids[r] && decoy_pids[r] == pid)
			return "decoy";
		if (sibling_pids[r] && sibling_pids[r] == pid)
			return "sibling";
	}
	return "other";
}

int is_extra(pid_t pid)
{
	int r;

	for (r = 0; r < MAX_EXTRAS; r++)
		if (pid > 0 && (decoy_pids[r] == pid || sibling_pids[r] == pid))
			return 1;
	return 0;
}

/*
 * Start @fn(@share) at oom_score_adj @adj, in the memory cgroup @dir, or
 * where we are when @dir is "".
 */
static pid_t start_in(const char *dir, const char *adj, void (*fn)(int),
		      int share)
{
	char path[160];
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		if (dir[0]) {
			snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
			write_file(path, "0");
		}
		set_oom_score_adj(adj);
		fn(share);
		exit(2);
	}
	return pid;
}

/* Start @fn(@share) at oom_score_adj 0, in the scenario's cgroup if any. */
static pid_t start(void (*fn)(int), int share)
{
	return start_in(memcg_path, "0", fn, share);
}

/*
 * A memory cgroup @dir of @max bytes, without swap, in the cgroup2
 * hierarchy the guest's init mounted on /sys/fs/cgroup.
 */
static void memcg_make(const char *dir, long max)
{
	char path[160], value[32];

	if (access("/sys/fs/cgroup/cgroup.subtree_control", W_OK))
		die("no cgroup2 hierarchy on /sys/fs/cgroup (CONFIG_MEMCG?)");
	write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	snprintf(value, sizeof(value), "%ld", max);
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	write_file(path, value);
	snprintf(path, sizeof(path), "%s/memory.swap.max", dir);
	if (!access(path, F_OK))
		write_file(path, "0");
}

/* The scenario @name's memory cgroup, of @max bytes: all its processes run there. */
static void memcg_create(const char *name, long max)
{
	snprintf(memcg_path, sizeof(memcg_path), "/sys/fs/cgroup/%s", name);
	memcg_make(memcg_path, max);
	memcg_max = max;
}

/* The sibling cgroups of 64 MiB, /sys/fs/cgroup/sibling-N. */
static char *sibling_dir(int i)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/sibling-%d", i);
	return dir;
}

/* Kill what runs in the sibling cgroups (cgroup.kill, since 5.14). */
static void memcg_kill_siblings(void)
{
	char path[96];
	int i;

	for (i = 0; i < MAX_EXTRAS && sibling_pids[i]; i++) {
		snprintf(path, sizeof(path), "%s/cgroup.kill", sibling_dir(i));
		write_file(path, "1");
	}
}

/* Start the scenario's decoys, one by one, and its sibling cgroups. */
static void start_extras(const struct scenario *s, int share)
{
	int i, p[2];
	char c;

	decoy_size = s->decoy_size;
	for (i = 0; i < s->decoys && i < MAX_EXTRAS; i++) {
		if (pipe(p))
			die("pipe");
		ready_fd = p[1];
		decoy_pids[i] = start(decoy, s->decoy_handoff ? share : -1);
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			die("a decoy did not get ready");
		close(p[0]);
	}
	for (i = 0; i < s->siblings && i < MAX_EXTRAS; i++) {
		memcg_make(sibling_dir(i), 64 * MIB);
		sibling_pids[i] = start_in(sibling_dir(i), "-1000", sibling, -1);
	}
}

void scenario_start(const struct scenario *s, pid_t pids[NROLES])
{
	int sv[2], av[2], fd;
	char c;

	memset(pids, 0, NROLES * sizeof(*pids));
	if (s->memcg)
		memcg_create(s->name, s->memcg);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	pids[BYSTANDER] = start(s->bystander, sv[1]);
	close(sv[1]);
	if (read(sv[0], &c, 1) != 1)
		die("the bystander did not get ready");
	if (s->sparse) {
		fd = memfd_create("sparse", 0);
		if (fd < 0 || ftruncate(fd, s->sparse))
			die("sparse memfd");
		hand_over(sv[0], fd);
		close(fd);
	}
	start_extras(s, sv[0]);
	if (s->churner)
		pids[CHURNER] = start(s->churner, -1);
	if (s->poller)
		pids[POLLER] = start(poll_proc, -1);
	if (s->allocator) {
		/*
		 * The allocator hands the hog what it allocates.  The hog first:
		 * an allocator holding the hog's end would wait for acks of a
		 * dead hog for ever.
		 */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, av))
			die("socketpair");
		pids[HOG] = start(s->hog, av[1]);
		close(av[1]);
		pids[ALLOCATOR] = start(s->allocator, av[0]);
		close(av[0]);
	} else {
		/* Only the hog may send the bystander something from now on. */
		pids[HOG] = start(s->hog, s->shared ? sv[0] : -1);
	}
	close(sv[0]);
}

void scenario_stop(const pid_t pids[NROLES])
{
	int r;

	for (r = 0; r < NROLES; r++)
		if (pids[r])
			kill(pids[r], SIGKILL);
	for (r = 0; r < MAX_EXTRAS; r++) {
		if (decoy_pids[r])
			kill(decoy_pids[r], SIGKILL);
		/* The drivers' holders and hogs go with their cgroups' kill. */
		if (sibling_pids[r])
			kill(sibling_pids[r], SIGKILL);
	}
	memcg_kill_siblings();
}
