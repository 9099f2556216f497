// SPDX-License-Identifier: GPL-2.0
/*
 * wl-pool grow | letgo | hold MIB: a Wayland client of the desktop guest,
 * with one xdg_toplevel window whose buffers come from wl_shm pools, memfds.
 *
 * grow: the pool grows without end, CHUNK at a time.  Each new chunk is
 * drawn with pwrite(), as a client that renders into its pool without
 * mapping it would, and shown: a buffer of the chunk is attached and
 * committed, and the client waits for the frame, so that the compositor
 * has mapped the pool (libwayland-server maps all of it, again at each
 * wl_shm_pool.resize) and read the chunk's pages to draw them.  The pool's
 * pages are in no RSS but the compositor's, and there only as far as it
 * drew them: the OOM killer must see them through the memfd.
 *
 * letgo: a pool a CHUNK, without end.  Each is drawn with pwrite() and
 * shown as grow does, and then its memfd is closed: the client never maps
 * its pools and holds none of them by a descriptor, but keeps each pool's
 * protocol object, for which the compositor keeps its mapping.  The client
 * has let go of the memory it allocated, which the compositor alone keeps,
 * by mappings that the client could make it drop at any time: the memory
 * must stay the client's.
 *
 * hold MIB: a pool of MIB MiB, mapped and drawn by the client, shown as one
 * buffer; then it prints "holding" and stays, answering the compositor.
 *
 * Prints "window shown" once the compositor has configured the window.
 * Exits 2 when the compositor is gone or a call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "guest.h"

#define WIDTH 1024
#define STRIDE (WIDTH * 4)

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static int configured, frame_done;

static void fail(const char *what)
{
	printf("error: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = wm_base_ping,
};

static void global(void *data, struct wl_registry *reg, uint32_t name,
		   const char *iface, uint32_t version)
{
	if (!strcmp(iface, wl_compositor_interface.name))
		compositor = wl_registry_bind(reg, name, &wl_compositor_interface, 4);
	else if (!strcmp(iface, wl_shm_interface.name))
		shm = wl_registry_bind(reg, name, &wl_shm_interface, 1);
	else if (!strcmp(iface, xdg_wm_base_interface.name)) {
		wm_base = wl_registry_bind(reg, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
	}
}

static void global_remove(void *data, struct wl_registry *reg, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = global,
	.global_remove = global_remove,
};

static void surface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	xdg_surface_ack_configure(xs, serial);
	configured = 1;
}

static const struct xdg_surface_listener surface_listener = {
	.configure = surface_configure,
};

static void frame(void *data, struct wl_callback *cb, uint32_t time)
{
	wl_callback_destroy(cb);
	frame_done = 1;
}

static const struct wl_callback_listener frame_listener = {
	.done = frame,
};

/* Dispatch until @flag is set or @ms pass; fail when the display is gone. */
static void wait_for(struct wl_display *dpy, int *flag, int ms)
{
	struct pollfd p = { .fd = wl_display_get_fd(dpy), .events = POLLIN };

	while (!*flag) {
		while (wl_display_prepare_read(dpy))
			wl_display_dispatch_pending(dpy);
		if (wl_display_flush(dpy) < 0 && errno != EAGAIN)
			fail("the compositor is gone");
		if (poll(&p, 1, ms) <= 0) {
			wl_display_cancel_read(dpy);
			return;
		}
		if (wl_display_read_events(dpy) || wl_display_dispatch_pending(dpy) < 0)
			fail("the compositor is gone");
	}
}

/* Show @len bytes of @pool from @offset, and wait for the frame (up to 2 s). */
static void show(struct wl_display *dpy, struct wl_surface *surface,
		 struct wl_shm_pool *pool, long offset, long len)
{
	static struct wl_buffer *shown;
	struct wl_buffer *buf;
	int rows = len / STRIDE;

	buf = wl_shm_pool_create_buffer(pool, offset, WIDTH, rows, STRIDE,
					WL_SHM_FORMAT_XRGB8888);
	wl_surface_attach(surface, buf, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, WIDTH, rows);
	frame_done = 0;
	wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
	wl_surface_commit(surface);
	if (shown)
		wl_buffer_destroy(shown);
	shown = buf;
	wait_for(dpy, &frame_done, 2000);
}

/* Draw [@offset, @offset + @len) of @fd with write(), a colour a chunk. */
static void draw(int fd, long offset, long len)
{
	static char line[STRIDE];
	long done;

	memset(line, 0x40 + (offset / CHUNK) % 0x80, sizeof(line));
	for (done = 0; done < len; done += sizeof(line))
		while (pwrite(fd, line, sizeof(line), offset + done) < 0)
			usleep(10000);	/* no memory now: the OOM killer acts */
}

int main(int argc, char **argv)
{
	long hold = argc == 3 && !strcmp(argv[1], "hold") ? atol(argv[2]) * MIB : 0;
	int letgo = argc == 2 && !strcmp(argv[1], "letgo");
	struct wl_display *dpy;
	struct wl_surface *surface;
	struct xdg_surface *xs;
	struct xdg_toplevel *top;
	struct wl_shm_pool *pool;
	long size;
	char *p;
	int fd;

	if (!hold && !letgo && (argc != 2 || strcmp(argv[1], "grow"))) {
		fprintf(stderr, "usage: wl-pool grow | letgo | hold MIB\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	dpy = wl_display_connect(NULL);
	if (!dpy)
		fail("wl_display_connect");
	wl_registry_add_listener(wl_display_get_registry(dpy), &registry_listener, NULL);
	wl_display_roundtrip(dpy);
	if (!compositor || !shm || !wm_base) {
		printf("error: the compositor lacks wl_compositor, wl_shm or xdg_wm_base\n");
		return 2;
	}
	surface = wl_compositor_create_surface(compositor);
	xs = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xs, &surface_listener, NULL);
	top = xdg_surface_get_toplevel(xs);
	xdg_toplevel_set_title(top, argv[1]);
	wl_surface_commit(surface);
	wait_for(dpy, &configured, 30000);
	if (!configured) {
		printf("error: the compositor did not configure the window\n");
		return 2;
	}
	printf("window shown\n");

	while (letgo) {
		fd = memfd_create("wl-pool", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, CHUNK))
			fail("memfd");
		draw(fd, 0, CHUNK);
		pool = wl_shm_create_pool(shm, fd, CHUNK);
		show(dpy, surface, pool, 0, CHUNK);
		/* The pool object lives on: the compositor keeps it mapped. */
		close(fd);
	}

	fd = memfd_create("wl-pool", MFD_CLOEXEC);
	size = hold ? hold : CHUNK;
	if (fd < 0 || ftruncate(fd, size))
		fail("memfd");
	pool = wl_shm_create_pool(shm, fd, size);
	if (hold) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			fail("mmap");
		memset(p, 0x80, size);
		show(dpy, surface, pool, 0, size);
		printf("holding %ld MiB\n", size / MIB);
		for (;;)
			if (wl_display_dispatch(dpy) < 0)
				fail("the compositor is gone");
	}
	for (;;) {
		draw(fd, size - CHUNK, CHUNK);
		show(dpy, surface, pool, size - CHUNK, CHUNK);
		while (ftruncate(fd, size + CHUNK))
			usleep(10000);
		size += CHUNK;
		wl_shm_pool_resize(pool, size);
	}
}
