// SPDX-License-Identifier: GPL-2.0
/*
 * oom-scenario SCENARIO: whom does the OOM killer kill first when a hog
 * allocates without end beside a bystander?  The scenarios are those of
 * lib/scenario.c.
 *
 * The first of the scenario's processes that the OOM killer kills (by its
 * own account in the kernel log), decoys and sibling cgroups aside, is the
 * victim; then the others are killed
 * by us, at once, or, in a scenario whose pressure ends with the hog's
 * death, 3 s later if the hog was the victim: the OOM killer must not have
 * killed another of them meanwhile.  Prints both processes' oom_score as
 * of a second before the end, the kills and "victim: hog" (or bystander,
 * churner).
 *
 * OOMTEST_EXPECT names the kind of kernel run (a column of /etc/scenarios,
 * boot-tests/scenarios on the host: series, series-off or base); the
 * scenario's row there says who must die first.  Exits 0 when the victim
 * is that one (or nothing is expected), 1 when not, 2 when the scenario
 * could not be set up or ended otherwise.
 *
 * This process and its parents must not be candidates: it sets its own
 * oom_score_adj to -1000 and its children's to 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "guest.h"
#include "scenario.h"

#define MAX_KILLS 16

int main(int argc, char **argv)
{
	const char *kind = getenv("OOMTEST_EXPECT");
	int timeout = getenv("OOMTEST_TIMEOUT") ? atoi(getenv("OOMTEST_TIMEOUT")) : 300;
	struct rlimit nofile = { 65536, 65536 };
	long hog_score = -1, bystander_score = -1, s;
	pid_t pids[NROLES], first = 0, kills[MAX_KILLS];
	const struct scenario *sc;
	const char *expect = NULL, *victim;
	int status, kmsg, nkills, others, holds, i;
	struct timespec t0, t1;

	sc = argc == 2 ? scenario_find(argv[1]) : NULL;
	if (!sc) {
		fprintf(stderr, "usage: oom-scenario %s\n", scenario_names());
		return 2;
	}
	if (kind)
		expect = expected_victim("/etc/scenarios", sc->name, kind);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sc->card) {
		char why[64];
		int card = open_card(sc->card, NULL, 0);

		snprintf(why, sizeof(why), "no %s card in /dev/dri", sc->card);
		if (card < 0)
			skip(why);
		close(card);
	}
	setrlimit(RLIMIT_NOFILE, &nofile);
	set_oom_score_adj("-1000");
	kmsg = kmsg_open();

	scenario_start(sc, pids);
	clock_gettime(CLOCK_MONOTONIC, &t0);	/* the hog has just started */
	printf("%s: bystander %d, hog %d\n", sc->name, pids[BYSTANDER], pids[HOG]);

	/* The first of them to die; their scores as they go. */
	for (i = 0; i < timeout * 20 && !first; i++) {
		first = waitpid(-1, &status, WNOHANG);
		/* Decoys die first, and are not what the scenario asks. */
		if (is_extra(first)) {
			first = 0;
			continue;
		}
		if (first)
			break;
		/* Scores as of a second before, not taken under pressure. */
		if (i % 20 == 0) {
			s = oom_score(pids[HOG]);
			hog_score = s > 0 ? s : hog_score;
			s = oom_score(pids[BYSTANDER]);
			bystander_score = s > 0 ? s : bystander_score;
		}
		usleep(50000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Time for a second victim to show, if the hog's death ends it. */
	if (sc->one_kill && first == pids[HOG])
		sleep(3);
	scenario_stop(pids);
	while (wait(NULL) > 0)
		;
	if (first <= 0) {
		printf("no one died within %d s\n", timeout);
		return 2;
	}
	nkills = oom_log(kmsg, kills, MAX_KILLS, &holds);
	printf("first to die: %s (%s), after %.1f s; the OOM killer killed:",
	       role_of(pids, first),
	       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited",
	       t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < nkills; i++)
		printf(" %s", role_of(pids, kills[i]));
	printf("\nlast oom_score seen: hog %ld, bystander %ld\n", hog_score, bystander_score);
	/*
	 * The victim is the OOM killer's first kill, not the first process
	 * reaped: a GEM hog is done for the OOM killer once its mm is gone,
	 * but it frees its buffers only as its files close, and a second
	 * victim killed meanwhile can be reaped before it.
	 */
	for (i = 0; i < nkills && kills[i] != first; i++)
		;
	if (i == nkills || !WIFSIGNALED(status)) {
		printf("error: the first death was not the OOM killer's\n");
		return 2;
	}
	/*
	 * The first kill of the scenario's own: decoys aside, and the kills
	 * of the sibling cgroups' OOMs ("other" to us).
	 */
	for (i = 0; i < nkills && (is_extra(kills[i]) ||
	     (sc->siblings && !strcmp(role_of(pids, kills[i]), "other"))); i++)
		;
	victim = role_of(pids, kills[i]);
	printf("victim: %s\n", victim);
	printf("the OOM killer held back for a victim's files %d times\n", holds);
	if (sc->no_holdback && holds) {
		printf("error: it held back for decoys whose files are not half of their memory\n");
		return 1;
	}
	for (i++, others = 0; i < nkills; i++)
		others += strcmp(role_of(pids, kills[i]), "other") != 0 &&
			  !is_extra(kills[i]);
	if (sc->one_kill && kills[0] == pids[HOG] && others) {
		printf("error: the hog's death ended the pressure, yet the OOM killer killed %d more of the scenario\n",
		       others);
		return 1;
	}
	if (!expect)
		return 0;
	if (strcmp(expect, victim)) {
		printf("expected: %s\n", expect);
		return 1;
	}
	return 0;
}
