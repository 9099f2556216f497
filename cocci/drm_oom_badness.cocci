// SPDX-License-Identifier: GPL-2.0-only
/// Set .oom_badness = drm_oom_badness and .oom_holders = drm_oom_holders in
/// the file_operations of every DRM driver that writes them out.  Files
/// opened through drm_open() carry a struct drm_file: drm_oom_badness()
/// reports to the OOM killer the pages of the GEM buffers that file holds
/// handles to, and drm_oom_holders() where the fd-table code counts who
/// holds the file; without the fields, a client can allocate through the
/// driver memory that no process is blamed for.  Fops made by a helper
/// macro (DEFINE_DRM_GEM_FOPS(), DRM_GEM_FOPS, DEFINE_DRM_GEM_DMA_FOPS(),
/// ...) get the fields from the macro, and are left alone here: a second
/// designated initializer of one would be an error under
/// -Werror=override-init.
///
/// The fields go right after .open: the end of the list can follow an
/// element under #ifdef that has no trailing comma (amdgpu in 6.1).  A
/// fops counts as converted when it sets both.
///
/// A file "opens through drm_open()" when its .open is drm_open(), a
/// function of the same file that calls drm_open() or drm_open_helper(), or
/// one of the functions named in the environment variable DRM_OPENERS
/// (cocci/spatch.sh finds them in the whole tree with -D openers).
///
/// Report mode prints raw lines that cocci/report.sh judges:
///   FOPS <file>:<line>: <name> <opener> <converted|missing>
///   ELEM <file>:<line>: <name> <element>   (a bare element: maybe a macro)
///   DECL <file>:<line>: <name> <declarer>  (DEFINE_*FOPS(name))
/// and -D openers prints "OPENER <function>" for each opening function.
//
// Confidence: High
// Copyright: (C) 2026 the per-file OOM badness series maintainers
// Options: --no-includes
// Keywords: oom_badness, oom_holders, drm_oom_badness, file_operations, drm_open
// Regenerate the driver topic with: make spatch VERSION=<kernel>

virtual patch
virtual report
virtual openers

@initialize:python@
@@
import os
drm_openers = set(os.environ.get("DRM_OPENERS", "drm_open").split())
drm_openers.add("drm_open")

// A function of this file that opens through drm_open() or its helper.
@opener@
identifier opener_name;
@@
opener_name(...)
{
	<+...
	\(drm_open\|drm_open_helper\)(...)
	...+>
}

@script:python@
local_fn << opener.opener_name;
@@
drm_openers.add(local_fn)

@script:python depends on openers@
local_fn << opener.opener_name;
@@
print("OPENER %s" % local_fn)

@has@
identifier fops;
expression E1, E2;
position p;
@@
struct file_operations fops@p = {
	...,
	.oom_badness = E1,
	...,
	.oom_holders = E2,
	...
};

@add depends on patch@
identifier fops;
identifier add_open : script:python() { add_open in drm_openers };
position p != has.p;
@@
struct file_operations fops@p = {
	...,
	.open = add_open,
+	.oom_badness = drm_oom_badness,
+	.oom_holders = drm_oom_holders,
	...
};

// Any .open here (an inherited metavariable cannot carry a script
// constraint): the script below keeps the openers.
@fops_with_open depends on report@
identifier fops;
identifier open_name;
position p;
@@
struct file_operations fops@p = {
	...,
	.open = open_name,
	...
};

@script:python depends on report@
fops << fops_with_open.fops;
opener_fn << fops_with_open.open_name;
p << fops_with_open.p;
hp << has.p = [];
@@
if opener_fn in drm_openers:
	state = "missing"
	for h in hp:
		if h.file == p[0].file and h.line == p[0].line:
			state = "converted"
	print("FOPS %s:%s: %s %s %s" %
	      (p[0].file, p[0].line, fops, opener_fn, state))

@elem depends on report@
identifier fops;
identifier M;
position p;
@@
struct file_operations fops@p = {
	...,
	M,
	...
};

@script:python depends on report@
fops << elem.fops;
M << elem.M;
p << elem.p;
@@
print("ELEM %s:%s: %s %s" % (p[0].file, p[0].line, fops, M))

@decl depends on report@
declarer D =~ "^DEFINE_.*FOPS$";
identifier fops;
position p;
@@
D@p(fops);

@script:python depends on report@
D << decl.D;
fops << decl.fops;
p << decl.p;
@@
print("DECL %s:%s: %s %s" % (p[0].file, p[0].line, fops, D))
