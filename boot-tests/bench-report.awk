# SPDX-License-Identifier: GPL-2.0
#
# The tables of boot-tests/bench-report.sh, from the results.tsv of
# boot-tests/bench.sh: "ROUND<tab>RUN<tab>result KIND ...", one line a
# measurement of a boot, or "skip KIND ...: why".  Variables: runs, the
# runs in order (the first is the base); dir, where the plot's data go.
# Prints Markdown; writes dir/plot-memfd.dat, plot-drm.dat, plot-socket.dat.

function sortv(list, a,    n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) {
		t = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n
}
function med(list,    a, n) {
	n = sortv(list, a)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lo(list,    a) { sortv(list, a); return a[1] }
function hi(list,    a, n) { n = sortv(list, a); return a[n] }
function count(list,    a) { return split(list, a, " ") }
# "M (lo-hi)" of a list, in format f, each value divided by d.
# A value in format f, without the sign of a "-0".
function fmt(f, x,    out) {
	out = sprintf(f, x)
	return out ~ /^-0(\.0*)?$/ ? substr(out, 2) : out
}
function stat(list, f, d) {
	if (list == "")
		return "-"
	if (count(list) == 1)
		return fmt(f, med(list) / d)
	return fmt(f, med(list) / d) " (" fmt(f, lo(list) / d) "–" fmt(f, hi(list) / d) ")"
}
# The recovery times of a list, in s: stat() of those that ended, and how
# often the hog outlived the bench (-1), "hog lived 3/3".
function recovery(list,    a, n, i, ended, lived) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] < 0)
			lived++
		else
			ended = ended (ended == "" ? "" : " ") a[i]
	if (!lived)
		return stat(list, "%.1f", 1000)
	return (ended == "" ? "" : stat(ended, "%.1f", 1000) ", ") "hog lived " lived "/" n
}
function add(arr, key, v) { arr[key] = arr[key] == "" ? v : arr[key] " " v }
function kind_label(kind) {
	return kind == "drm" ? "DRM" : kind == "socket" ? "socket" : "memfd"
}
function label(key,    k, op) {
	split(key, k, SUBSEP)
	if (k[1] == "score")
		return sprintf("oom_score read, %s %s files", k[3], kind_label(k[2]))
	if (k[1] == "select")
		return sprintf("OOM victim selection, %s tasks of %s memfds + 1 DRM file", k[2], k[3])
	if (k[1] == "fdops") {
		if (k[3] == "dup")
			return sprintf("dup() of a %s + close()", kind_label(k[2]))
		if (k[3] == "fork")
			return sprintf("fork() + exit of a task holding %s files", kind_label(k[2]))
		if (k[3] == "exec")
			return sprintf("fork() + execve() of a task holding %s files", kind_label(k[2]))
		if (k[3] == "scm")
			return sprintf("SCM_RIGHTS round trip of a %s + close()", kind_label(k[2]))
		return sprintf("%s + close()", k[2] == "socket" ? "socket()" : "memfd_create()")
	}
	if (k[1] == "alloc") {
		if (k[2] == "exit")
			return sprintf("exit of a task holding %s charged memfds (SIGKILL to waitpid)", k[3])
		if (k[2] == "write")
			return sprintf("memfd write(), a page (%s pages a sample)", k[3])
		if (k[2] == "fault")
			return sprintf("memfd write fault of a shared mapping, a page (%s pages a sample)", k[3])
		return sprintf("memfd punch-hole, a page (%s pages a sample)", k[3])
	}
	if (k[1] == "handoff") {
		if (k[2] == "exit")
			return sprintf("exit of a task whose %s charged memfds its child keeps (SIGKILL to waitpid)", k[3])
		return sprintf("OOM with %s charges let go (sysrq f to the OOM report)", k[3])
	}
	if (k[1] == "latency") {
		op = k[2] == "p99" ? "99th percentile" : "worst"
		return sprintf("socket() + close() of a task holding %s memfds while its oom_score is read, %s", k[3], op)
	}
	return sprintf("GEM create + close (%s pairs a sample)", k[2])
}

BEGIN {
	FS = "\t"
	nruns = split(runs, run, " ")
	base = run[1]
}
{
	round = $1; r = $2; n = split($3, f, " ")
	if (!(round in seen_round)) { seen_round[round] = 1; rounds[++nrounds] = round }
	if (f[1] == "skip") { skips[++nskips] = r ", round " round ": " substr($3, 6); next }
	if (f[2] == "victims") {
		s = f[3]
		if (!(s in seen_s)) { seen_s[s] = 1; scen[++nscen] = s }
		for (i = 4; i < n; i += 2)
			val[f[i]] = f[i + 1]
		add(first, s SUBSEP r, val["first"])
		add(kills, s SUBSEP r, val["kills"])
		add(nkills, s SUBSEP r, val["nkills"])
		add(recov, s SUBSEP r, val["recovery_ms"])
		# Not a key of the costs: only ratios() reads it.
		v[round, r, "recovery" SUBSEP s] = val["recovery_ms"]
		next
	}
	# result KIND KEY... median M min m max M: a boot's fastest sample
	# (interference only adds time; see guest/bench-cost.c).
	key = f[2]
	for (i = 3; i < n && f[i] != "median"; i++)
		key = key SUBSEP f[i]
	if (!(key in seen_k)) { seen_k[key] = 1; keys[++nkeys] = key }
	v[round, r, key] = f[i + 3]
}

# "hog 4/5, bystander 1/5": how often each value of a list.
function tally(list,    a, n, i, c, out, order, no) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) {
		if (!(a[i] in c)) order[++no] = a[i]
		c[a[i]]++
	}
	for (i = 1; i <= no; i++)
		out = out (i > 1 ? ", " : "") order[i] " " c[order[i]] "/" n
	return out
}

function victims(    i, j, s, r) {
	print "## What it buys: whom the OOM killer kills" > dest
	print "" > dest
	print "Each scenario once a round on each kernel.  *First to die* and *OOM kills*" > dest
	print "(the processes it killed, in order) count the rounds; *kills* is how many" > dest
	print "processes died before the pressure ended, *recovery* the time from the" > dest
	print "start of the hog to its end: median (min–max) over the rounds, and how" > dest
	print "often the hog outlived the bench's timeout while others died instead" > dest
	print "(*hog lived*); and" > dest
	print "*recovery / " base "* that time over the base's in the same round." > dest
	print "" > dest
	print "| scenario | kernel | first to die | OOM kills | kills | recovery, s | recovery / " base " |" > dest
	print "|---|---|---|---|---|---|---|" > dest
	for (i = 1; i <= nscen; i++)
		for (j = 1; j <= nruns; j++) {
			s = scen[i]; r = run[j]
			if (!((s SUBSEP r) in first))
				continue
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", j == 1 ? s : "", r,
				tally(first[s, r]), tally(kills[s, r]), stat(nkills[s, r], "%d", 1),
				recovery(recov[s, r]),
				j == 1 ? "" : stat(ratios(r, "recovery" SUBSEP s), "%.2f", 1) > dest
		}
	print "" > dest
}

# The ratios of run @r to the base, one a round, for @key.
function ratios(r, key,    i, out, b, x) {
	for (i = 1; i <= nrounds; i++) {
		b = v[rounds[i], base, key]; x = v[rounds[i], r, key]
		if (b > 0 && x != "" && x >= 0)
			out = out (out == "" ? "" : " ") x / b
	}
	return out
}

function costs(    i, j, key, abs, unit, d) {
	print "## What it costs" > dest
	print "" > dest
	print "The base's time (the fastest sample of a boot, then the median and range" > dest
	print "over the rounds), and each kernel's time over the base's in the same" > dest
	print "round: median (min–max) over the rounds." > dest
	print "" > dest
	printf "| measure | %s |", base > dest
	for (j = 2; j <= nruns; j++)
		printf " %s / %s |", run[j], base > dest
	printf "\n|---|---|" > dest
	for (j = 2; j <= nruns; j++)
		printf "---|" > dest
	print "" > dest
	for (i = 1; i <= nkeys; i++) {
		key = keys[i]; abs = ""
		for (j = 1; j <= nrounds; j++)
			if (v[rounds[j], base, key] != "")
				abs = abs (abs == "" ? "" : " ") v[rounds[j], base, key]
		unit = med(abs) >= 1e6 ? "ms" : "µs"; d = unit == "ms" ? 1e6 : 1e3
		printf "| %s | %s |", label(key), abs == "" ? "-" : stat(abs, "%.0f", d) " " unit > dest
		for (j = 2; j <= nruns; j++) {
			ratio[run[j], key] = ratios(run[j], key)
			printf " %s |", stat(ratio[run[j], key], "%.2f", 1) > dest
		}
		print "" > dest
	}
	print "" > dest
}

# The slope of oom_score read time over files of @kind, per round, less
# the base's: ns a file.  Also the plot's data.
function per_file(kind,    i, j, k, nmax, key0, keyn, b, x, out, rnd, a, dat, t, line) {
	nmax = -1
	for (i = 1; i <= nkeys; i++) {
		split(keys[i], k, SUBSEP)
		if (k[1] == "score" && k[2] == kind && k[3] + 0 > nmax)
			nmax = k[3] + 0
	}
	if (nmax <= 0)
		return
	key0 = "score" SUBSEP kind SUBSEP 0; keyn = "score" SUBSEP kind SUBSEP nmax
	printf "| %s, 0 to %d files |", kind_label(kind), nmax > dest
	for (j = 1; j <= nruns; j++) {
		out = ""
		for (i = 1; i <= nrounds; i++) {
			rnd = rounds[i]
			if (v[rnd, run[j], keyn] == "" || v[rnd, run[j], key0] == "" ||
			    v[rnd, base, keyn] == "" || v[rnd, base, key0] == "")
				continue
			x = (v[rnd, run[j], keyn] - v[rnd, run[j], key0]) / nmax
			b = (v[rnd, base, keyn] - v[rnd, base, key0]) / nmax
			out = out (out == "" ? "" : " ") (j == 1 ? x : x - b)
		}
		nsfile[kind, run[j]] = out
		printf " %s |", stat(out, "%.0f", 1) > dest
	}
	print "" > dest
	# The plot: files, then each run's time in us (median over the rounds).
	dat = dir "/plot-" kind ".dat"
	line = "files"
	for (j = 1; j <= nruns; j++)
		line = line " " run[j]
	print line > dat
	for (i = 1; i <= nkeys; i++) {
		split(keys[i], k, SUBSEP)
		if (k[1] != "score" || k[2] != kind)
			continue
		line = k[3]
		for (j = 1; j <= nruns; j++) {
			t = ""
			for (a = 1; a <= nrounds; a++)
				if (v[rounds[a], run[j], keys[i]] != "")
					t = t (t == "" ? "" : " ") v[rounds[a], run[j], keys[i]]
			line = line " " (t == "" ? "NaN" : med(t) / 1000)
		}
		print line > dat
	}
	close(dat)
}

function files_table(    j) {
	print "### The cost of an open file" > dest
	print "" > dest
	printf "oom_score read time a file, in ns: the %s's own slope, then each\n", base > dest
	print "kernel's over the base's, in the same round: median (min–max)." > dest
	print "" > dest
	printf "| files |" > dest
	for (j = 1; j <= nruns; j++)
		printf " %s |", j == 1 ? base " (its own)" : run[j] " (over " base ")" > dest
	printf "\n|---|" > dest
	for (j = 1; j <= nruns; j++)
		printf "---|" > dest
	print "" > dest
	per_file("memfd")
	per_file("drm")
	per_file("socket")
	print "" > dest
	print "![oom_score read time against open files](plot.png)" > dest
	print "" > dest
}

# "yes" when the median of @list is within [@lo, @hi], and the whole range
# too; else says how it misses.
function within(list, lo_b, hi_b,    m, l, h) {
	if (list == "")
		return "not measured"
	m = med(list); l = lo(list); h = hi(list)
	if (m < lo_b || m > hi_b)
		return "no"
	if (l >= lo_b && h <= hi_b)
		return "yes"
	return nrounds < 2 ? "yes (1 round)" : "yes by the median; the rounds spread wider"
}

# The key of kind @k1 whose third field is largest (the most files), or "".
function largest(k1, k2,    i, k, best, n) {
	n = -1
	for (i = 1; i <= nkeys; i++) {
		split(keys[i], k, SUBSEP)
		if (k[1] == k1 && k[2] == k2 && k[3] + 0 > n) { n = k[3] + 0; best = keys[i] }
	}
	return best
}

# Whether run @r has measures of kind @kind; then within_all lists their
# ratios and within_met says whether each is at most @hi_b (as within()).
function all_within(r, kind, hi_b,    i, k, w, n) {
	within_all = ""; within_met = "yes"; n = 0
	for (i = 1; i <= nkeys; i++) {
		split(keys[i], k, SUBSEP)
		if (k[1] != kind)
			continue
		n++
		within_all = within_all (within_all == "" ? "" : "; ") label(keys[i]) " " stat(ratio[r, keys[i]], "%.3f", 1)
		w = within(ratio[r, keys[i]], 0, hi_b)
		if (w == "no" || w == "not measured")
			within_met = "no"
		else if (w != "yes" && within_met == "yes")
			within_met = w
	}
	return n
}

# The targets, and whether the figures above meet them.
function targets(    i, key, off, on, in_noise, total, worst, w, gem, m, l, h, s, met, off_met, k, fd, all, n) {
	off = run[2]; on = run[nruns]
	for (i = 1; i <= nkeys; i++) {
		key = keys[i]
		if (ratio[off, key] == "")
			continue
		total++
		if (lo(ratio[off, key]) <= 1 && hi(ratio[off, key]) >= 1)
			in_noise++
		else
			worst = worst (worst == "" ? "" : "; ") label(key) ": " stat(ratio[off, key], "%.2f", 1)
		split(key, w, SUBSEP)
		if (w[1] == "gem")
			gem = key
	}
	print "## Targets" > dest
	print "" > dest
	print "| target | measured | met? |" > dest
	print "|---|---|---|" > dest
	off_met = "no"
	if (total && in_noise == total)
		off_met = "yes"
	else if (total && nrounds < 2)
		off_met = "cannot tell from 1 round"
	printf "| %s: nothing measurable (ratio 1.00 within the noise) | the range of its ratios holds 1.00 in %d of %d measures%s | %s |\n",
		off, in_noise, total, (worst == "" ? "" : "; not in: " worst), off_met > dest
	printf "| %s: the cost of an open file, in ns/file | memfd %s, DRM %s (over %s, TCG with lockdep) | stated |\n",
		on, stat(nsfile["memfd", on], "%.0f", 1), stat(nsfile["drm", on], "%.0f", 1), base > dest
	if (gem != "") {
		s = ratio[on, gem]; m = med(s); l = lo(s); h = hi(s)
		printf "| %s: GEM create/close loop at most 2%% slower than %s | %s | %s |\n", on, base,
			stat(s, "%.3f", 1), within(s, 0, 1.02) > dest
	}
	key = largest("score", "socket")
	if (key != "") {
		split(key, k, SUBSEP)
		printf "| %s: oom_score read of a task with %s sockets (no badness) within 5%% of %s | %s | %s |\n",
			on, k[3], base, stat(ratio[on, key], "%.2f", 1), within(ratio[on, key], 0, 1.05) > dest
	}
	key = largest("score", "memfd")
	if (key != "") {
		split(key, k, SUBSEP)
		printf "| %s: oom_score read of a task with %s memfds at most 1.1× %s | %s | %s |\n",
			on, k[3], base, stat(ratio[on, key], "%.2f", 1), within(ratio[on, key], 0, 1.1) > dest
	}
	key = ""; n = -1
	for (i = 1; i <= nkeys; i++) {
		split(keys[i], k, SUBSEP)
		if (k[1] == "select" && k[2] + 0 > n) { n = k[2] + 0; key = keys[i] }
	}
	if (key != "") {
		split(key, k, SUBSEP)
		printf "| %s: OOM victim selection among %s tasks holding memfds and a DRM file at most 1.1× %s | %s | %s |\n",
			on, k[2], base, stat(ratio[on, key], "%.2f", 1), within(ratio[on, key], 0, 1.1) > dest
	}
	if (all_within(on, "alloc", 1.05))
		printf "| %s: memfd write(), page faults, punch-hole and the exit of a task holding charged memfds, each at most 5%% slower than %s | %s | %s |\n",
			on, base, within_all, within_met > dest
	if (all_within(on, "fdops", 1.02))
		printf "| %s: open, dup, close, fork, exec and SCM_RIGHTS of memfds and of sockets within noise (at most 2%% slower) of %s | %s | %s |\n",
			on, base, within_all, within_met > dest
	key = largest("latency", "p99")
	if (key != "") {
		split(key, k, SUBSEP)
		fd = largest("latency", "max")
		printf "| %s: no lock held across the walk: socket() + close() of a task holding %s memfds, while its oom_score is read, as fast as on %s (99th percentile within 1.5×) | 99th percentile %s, worst %s | %s |\n",
			on, k[3], base, stat(ratio[on, key], "%.2f", 1), stat(ratio[on, fd], "%.2f", 1),
			within(ratio[on, key], 0, 1.5) > dest
	}
	print "" > dest
}

END {
	# The targets come first, from the figures of the tables after them.
	dest = "/dev/null"
	costs()
	files_table()
	dest = "/dev/stdout"
	targets()
	victims()
	costs()
	files_table()
	if (nskips) {
		print "## Not measured" > dest
		print "" > dest
		for (i = 1; i <= nskips; i++)
			print "- " skips[i] > dest
		print "" > dest
	}
}
