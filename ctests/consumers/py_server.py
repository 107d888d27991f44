#!/usr/bin/python3
"""A PMIx server written with the Python bindings (python3-pmix), hosting two py_client.py
processes; run by python.sh.

usage: py_server.py CLIENT_SCRIPT

The server inits with a private PMIX_SERVER_TMPDIR / PMIX_SYSTEM_TMPDIR (taken from $TMPDIR),
registers an nspace of 2 ranks with job info, registers both clients, runs setup_fork for each
and starts them. Its module implements fence (fencenb), publish/lookup/unpublish over a
Python dict, and client connect/finalize. Once both clients have published
"ctest.ready.<rank>", it notifies SERVER_EVENT to them (PMIX_RANGE_GLOBAL). It exits 0 only if
both clients exit 0 and its own checks hold; it prints one summary line.

With CHECK_MAPS_FILE set, the server and each client append "<role> <pid> python3 <paths>" to
that file: the libpmix* files mapped in their /proc/self/maps (see python.sh)."""
import os
import socket
import subprocess
import sys
import threading
import time

import pmix
from pmix import PMIX_STRING, PMIX_UINT32, PMIX_SUCCESS

SERVER_EVENT = -3102
DONE = (PMIX_SUCCESS, pmix.PMIX_OPERATION_SUCCEEDED)
TIMEOUT = 40.0

failures = []
lock = threading.Lock()
published = {}          # key -> {'proc':..., 'key':..., 'value':..., 'val_type':...}
fences = 0
both_ready = threading.Event()
connected = []
unpublished = []
finalized = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("py_server: CHECK FAILED: %s" % what, file=sys.stderr, flush=True)
    return cond


def info(key, value, vtype):
    return {'key': key, 'value': value, 'val_type': vtype}


def s(v):
    return v.decode() if isinstance(v, (bytes, bytearray)) else v


def libs_mapped():
    libs = []
    with open("/proc/self/maps") as f:
        for line in f:
            i = line.find('/')
            if i < 0:
                continue
            path = line[i:].strip()
            if os.path.basename(path).startswith("libpmix") and path not in libs:
                libs.append(path)
    return libs


# ---- server module (upcalls run in the library's progress thread) ----
# The bindings turn PMIX_SUCCESS from an upcall that has no data to return into
# PMIX_OPERATION_SUCCEEDED (the library then completes the operation itself); upcalls with
# data (fence, lookup) return (status, data) and the bindings queue the callback to their own
# progress thread.

def clientconnected(proc):
    with lock:
        connected.append(proc['rank'])
    return PMIX_SUCCESS


def clientfinalized(proc):
    with lock:
        finalized.append(proc['rank'])
    return PMIX_SUCCESS


def fencenb(args):
    # Never called by the reference library in this test: its server completes a fence whose
    # participants are all local without asking the host (python.sh runs show "fences 0").
    global fences
    with lock:
        fences += 1
    # All participants are local, so the library already holds every committed value; the
    # host has nothing to add. (The bindings copy the returned blob with strdup(), so a
    # blob containing NUL bytes could not be passed back intact anyway.)
    return PMIX_SUCCESS, bytearray()


def publish(args):
    with lock:
        for d in args.get('directives', []):
            k = s(d['key'])
            published[k] = {'proc': args['proc'], 'key': k, 'value': d['value'], 'val_type': d['val_type']}
        if "ctest.ready.0" in published and "ctest.ready.1" in published:
            both_ready.set()
    return PMIX_SUCCESS


def lookup(args):
    out = []
    with lock:
        for k in args.get('keys', []):
            k = s(k)
            if k in published:
                out.append(published[k])
    if not out:
        return pmix.PMIX_ERR_NOT_FOUND, []
    return PMIX_SUCCESS, out


def unpublish(args):
    # The 4.2.2 bindings pass no keys to PMIx_Unpublish whatever the caller gives (their
    # PMIxClient.unpublish drops the converted list), which means "everything this process
    # published"; honour both forms.
    with lock:
        unpublished.append([s(k) for k in args.get('keys') or []])
        keys = args.get('keys')
        if keys:
            for k in keys:
                published.pop(s(k), None)
        else:
            for k in [k for k, v in published.items() if v['proc'] == args['proc']]:
                del published[k]
    return PMIX_SUCCESS


def main():
    client_script = sys.argv[1]
    tmp = os.environ.get("TMPDIR", "/tmp")
    srv = pmix.PMIxServer()
    rc = srv.init([info(pmix.PMIX_SERVER_TMPDIR, tmp, PMIX_STRING),
                   info(pmix.PMIX_SYSTEM_TMPDIR, tmp, PMIX_STRING),
                   info(pmix.PMIX_SERVER_NSPACE, "ctest-pysrv", PMIX_STRING),
                   info(pmix.PMIX_SERVER_RANK, 0, PMIX_UINT32)],
                  {'clientconnected': clientconnected, 'clientfinalized': clientfinalized,
                   'fencenb': fencenb, 'publish': publish, 'lookup': lookup,
                   'unpublish': unpublish})
    if not check(rc == PMIX_SUCCESS, "server init rc %d" % rc):
        return 1
    f = os.environ.get("CHECK_MAPS_FILE")
    if f:
        with open(f, "a") as out:
            out.write("server %d python3 %s\n" % (os.getpid(), ",".join(libs_mapped()) or "-"))

    ns = "ctest.py.%d" % os.getpid()
    host = socket.gethostname()
    rc, regex = srv.generate_regex([host])
    check(rc == PMIX_SUCCESS, "generate_regex rc %d" % rc)
    rc, ppn = srv.generate_ppn(["0,1"])
    check(rc == PMIX_SUCCESS, "generate_ppn rc %d" % rc)
    job = [info(pmix.PMIX_JOB_SIZE, 2, PMIX_UINT32),
           info(pmix.PMIX_UNIV_SIZE, 2, PMIX_UINT32),
           info(pmix.PMIX_MAX_PROCS, 2, PMIX_UINT32),
           info(pmix.PMIX_LOCAL_SIZE, 2, PMIX_UINT32),
           info(pmix.PMIX_LOCAL_PEERS, "0,1", PMIX_STRING),
           info(pmix.PMIX_NODE_MAP, regex, PMIX_STRING),
           info(pmix.PMIX_PROC_MAP, ppn, PMIX_STRING),
           info("ctest.jobkey", "jobval", PMIX_STRING)]
    # without a callback the library completes the registration at once and says so with
    # PMIX_OPERATION_SUCCEEDED (the bindings pass NULL for the callback)
    rc = srv.register_nspace(ns, 2, job)
    if not check(rc in DONE, "register_nspace rc %d" % rc):
        return 1

    procs = []
    for rank in range(2):
        p = {'nspace': ns, 'rank': rank}
        rc = srv.register_client(p, os.getuid(), os.getgid())
        check(rc in DONE, "register_client %d rc %d" % (rank, rc))
        env = os.environ.copy()
        rc = srv.setup_fork(p, env)
        check(rc == PMIX_SUCCESS, "setup_fork %d rc %d" % (rank, rc))
        check(env.get("PMIX_NAMESPACE") == ns and env.get("PMIX_RANK") == str(rank),
              "setup_fork env %r %r" % (env.get("PMIX_NAMESPACE"), env.get("PMIX_RANK")))
        procs.append(subprocess.Popen([sys.executable, client_script], env=env))

    # notify both clients once both have published "ctest.ready.<rank>": they then wait for
    # this event in Python (see the deadlock rule in py_client.py)
    if check(both_ready.wait(TIMEOUT), "the clients never both published ctest.ready.*"):
        rc = srv.notify_event(SERVER_EVENT, {'nspace': "ctest-pysrv", 'rank': 0}, pmix.PMIX_RANGE_GLOBAL,
                              [info("ctest.evdata", "from-server", PMIX_STRING)])
        check(rc == PMIX_SUCCESS, "server notify_event rc %d" % rc)

    deadline = time.time() + TIMEOUT
    for i, p in enumerate(procs):
        try:
            rc = p.wait(max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
        check(rc == 0, "client %d exit status %d" % (i, rc))
    for rank in range(2):
        srv.deregister_client({'nspace': ns, 'rank': rank})
    srv.deregister_nspace(ns)
    with lock:
        print("py_server: connected %s finalized %s fences %d unpublish %s remaining %s %s" % (
            sorted(connected), sorted(finalized), fences, unpublished, sorted(k for k in published if k.startswith("ctest.")), "OK" if not failures else "BAD"),
            flush=True)
    rc = srv.finalize()
    check(rc == PMIX_SUCCESS, "server finalize rc %d" % rc)
    return 0 if not failures else 1


if __name__ == '__main__':
    sys.exit(main())
