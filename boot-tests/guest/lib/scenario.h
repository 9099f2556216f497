/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OOM scenarios of the boot-test guest, shared by oom-scenario (whom the
 * OOM killer kills first, asserted by the A/B runs) and bench-oom (how many
 * it kills, how soon memory is free again): each scenario is a hog that
 * allocates without end and a bystander that holds memory of its own, and
 * sometimes a third process.
 */
#ifndef OOMTEST_SCENARIO_H
#define OOMTEST_SCENARIO_H

#include <stdnoreturn.h>
#include <sys/types.h>

enum role { BYSTANDER, HOG, CHURNER, POLLER, ALLOCATOR, NROLES };

/*
 * A scenario: what each of its processes runs, given @share, a socket to
 * the bystander's (or, for the bystander, to its starter's) end of a pair:
 * -1 for the hog unless @shared, when the hog hands its memfd over on it.
 * They do not return.
 */
struct scenario {
	const char *name;
	void (*hog)(int share);
	void (*bystander)(int share);
	int shared;		/* the hog hands its memfd or buffers over */
	long sparse;		/* the bystander is handed a sparse memfd this big */
	void (*churner)(int share);
	/*
	 * Run every process in a memory cgroup of its own, with memory.max
	 * this big (and no swap): the OOM is the cgroup's.
	 */
	long memcg;
	/* A process reads every /proc/PID/oom_score every 50 ms meanwhile. */
	int poller;
	/*
	 * The hog's death ends the pressure: when the hog is the first
	 * victim, the OOM killer must kill no other process of the scenario.
	 */
	int one_kill;
	/*
	 * What allocates the memory the hog keeps: started before the hog,
	 * it hands what it allocates over on @share, whose other end is the
	 * hog's.
	 */
	void (*allocator)(int share);
	/* The DRM driver whose card it needs, or NULL: skipped without. */
	const char *card;
	/*
	 * This many decoys at oom_score_adj 1000, started before the hog,
	 * each holding a memfd of @decoy_size bytes, written; with
	 * @decoy_handoff, handed to the bystander and closed.
	 */
	int decoys;
	long decoy_size;
	int decoy_handoff;
	/* The OOM killer must not hold back for a victim's files. */
	int no_holdback;
	/*
	 * This many sibling memory cgroups, in each of which a holder of a
	 * memfd is killed by the cgroup's OOM, again and again.
	 */
	int siblings;
};

/* The scenario called @name, or NULL. */
const struct scenario *scenario_find(const char *name);
/* The names of all scenarios, " | " between them, for a usage line. */
const char *scenario_names(void);
/*
 * Start @s: the bystander, and once it holds its memory the churner and the
 * hog, each at oom_score_adj 0 (the caller should be at -1000); their pids
 * in @pids, 0 for a role the scenario has not.
 */
void scenario_start(const struct scenario *s, pid_t pids[NROLES]);
/*
 * The role of @pid in @pids: "bystander", "hog", "churner", "poller",
 * "allocator", "decoy", "sibling" (a sibling cgroup's driver) or "other".
 */
const char *role_of(const pid_t pids[NROLES], pid_t pid);
/* Whether @pid is a decoy or a sibling cgroup's driver. */
int is_extra(pid_t pid);
/* Kill the scenario's processes, and what runs in its sibling cgroups. */
void scenario_stop(const pid_t pids[NROLES]);

/* A hog of anonymous memory, CHUNK at a time, without end (@share unused). */
noreturn void hog_anon(int share);

#endif
