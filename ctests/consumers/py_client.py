#!/usr/bin/python3
"""PMIx client for python.sh, started by py_server.py (see there). Two of these run at once.

Each client: init; reads job info the server registered; put/commit, fence (collecting data),
get the peer's keys; rank 0 publishes and rank 1 looks up; events: rank 0 notifies rank 1
(PMIX_RANGE_LOCAL), then each publishes "ctest.ready.<rank>" and waits for the event the
server notifies once both are ready; rank 0 unpublishes; fence; finalize. Exit status 0 only if every check held.
It prints one summary line derived from the values it received.

Deadlock rule (a property of the bindings, not of the library): the bindings keep the GIL
while they block in a PMIx call, and run event handlers in the library's progress thread,
which needs the GIL. An event that reaches a client while its main thread blocks in PMIx
(fence, publish, get...) stalls the progress thread, and with it the reply the main thread
waits for. So every event here is sent only while its receivers wait in Python
(threading.Event.wait releases the GIL), and rank 0 registers no handler for the event it
sends itself.
"""
import os
import sys
import threading

import pmix
from pmix import (PMIX_BOOL, PMIX_INT32, PMIX_STRING, PMIX_GLOBAL,
                  PMIX_RANK_WILDCARD, PMIX_SUCCESS)

CLIENT_EVENT = -3101   # below PMIX_EXTERNAL_ERR_BASE (-3000): free for users
SERVER_EVENT = -3102
TIMEOUT = 20.0

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("py_client: CHECK FAILED: %s" % what, file=sys.stderr, flush=True)
    return cond


def info(key, value, vtype):
    return {'key': key, 'value': value, 'val_type': vtype}


def s(v):
    """Bindings return nspaces and strings sometimes as str, sometimes as bytes."""
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


def report_maps(role):
    f = os.environ.get("CHECK_MAPS_FILE")
    if f:
        with open(f, "a") as out:
            out.write("%s %d python3 %s\n" % (role, os.getpid(), ",".join(libs_mapped()) or "-"))


events = {CLIENT_EVENT: threading.Event(), SERVER_EVENT: threading.Event()}
event_src = {}


def handler(evid, status, source, pyinfo, pyresults):
    event_src[status] = (source, pyinfo)
    if status in events:
        events[status].set()
    return pmix.PMIX_EVENT_ACTION_COMPLETE, []


def main():
    c = pmix.PMIxClient()
    rc, me = c.init([])
    if not check(rc == PMIX_SUCCESS, "init rc %d" % rc):
        return 1
    report_maps("client-rank%s" % os.environ.get("PMIX_RANK", "?"))
    ns, rank = s(me['nspace']), me['rank']
    check(ns == os.environ.get("PMIX_NAMESPACE"), "nspace %r vs env %r" % (ns, os.environ.get("PMIX_NAMESPACE")))
    peer = 1 - rank
    wild = {'nspace': ns, 'rank': PMIX_RANK_WILDCARD}

    rc, v = c.get(wild, pmix.PMIX_JOB_SIZE, [])
    check(rc == PMIX_SUCCESS and v['value'] == 2, "job size %r %r" % (rc, v))
    rc, v = c.get(wild, "ctest.jobkey", [])
    check(rc == PMIX_SUCCESS and s(v['value']) == "jobval", "ctest.jobkey %r %r" % (rc, v))

    # register handlers first so no notification can be missed
    codes = [SERVER_EVENT] if rank == 0 else [CLIENT_EVENT, SERVER_EVENT]
    rc, ref = c.register_event_handler(codes,
                                       [info(pmix.PMIX_EVENT_HDLR_NAME, "ctest-%d" % rank, PMIX_STRING)],
                                       handler)
    check(rc == PMIX_SUCCESS, "register_event_handler rc %r" % rc)

    rc = c.put(PMIX_GLOBAL, "ctest.str", {'value': "from-%d" % rank, 'val_type': PMIX_STRING})
    check(rc == PMIX_SUCCESS, "put str rc %d" % rc)
    rc = c.put(PMIX_GLOBAL, "ctest.int", {'value': 1000 + rank, 'val_type': PMIX_INT32})
    check(rc == PMIX_SUCCESS, "put int rc %d" % rc)
    rc = c.commit()
    check(rc == PMIX_SUCCESS, "commit rc %d" % rc)
    rc = c.fence([wild], [info(pmix.PMIX_COLLECT_DATA, True, PMIX_BOOL)])
    check(rc == PMIX_SUCCESS, "fence 1 rc %d" % rc)
    rc, pstr = c.get({'nspace': ns, 'rank': peer}, "ctest.str", [])
    check(rc == PMIX_SUCCESS and s(pstr['value']) == "from-%d" % peer, "get peer str %r %r" % (rc, pstr))
    rc, pint = c.get({'nspace': ns, 'rank': peer}, "ctest.int", [])
    check(rc == PMIX_SUCCESS and pint['value'] == 1000 + peer, "get peer int %r %r" % (rc, pint))

    # publish / lookup
    if rank == 0:
        rc = c.publish([info("ctest.service", "port-of-%s" % ns, PMIX_STRING)])
        check(rc == PMIX_SUCCESS, "publish rc %d" % rc)
    rc = c.fence([wild], [])
    check(rc == PMIX_SUCCESS, "fence 2 rc %d" % rc)
    looked = None
    if rank == 1:
        rc, pdata = c.lookup([{'key': "ctest.service"}], [])
        check(rc == PMIX_SUCCESS, "lookup rc %d" % rc)
        if rc == PMIX_SUCCESS:
            looked = s(pdata[0]['value']) if pdata else None
            check(looked == "port-of-%s" % ns, "lookup value %r" % (pdata,))

    # events: rank 0 notifies rank 1; then the server notifies both once both are ready
    rc = c.fence([wild], [])
    check(rc == PMIX_SUCCESS, "fence 3 rc %d" % rc)
    if rank == 0:
        rc = c.notify_event(CLIENT_EVENT, {'nspace': ns, 'rank': rank}, pmix.PMIX_RANGE_LOCAL,
                            [info("ctest.evdata", "hello", PMIX_STRING)])
        check(rc == PMIX_SUCCESS, "notify_event rc %d" % rc)
    else:
        check(events[CLIENT_EVENT].wait(TIMEOUT), "client event never arrived")
    rc = c.publish([info("ctest.ready.%d" % rank, rank, PMIX_INT32)])
    check(rc == PMIX_SUCCESS, "publish ready rc %d" % rc)
    check(events[SERVER_EVENT].wait(TIMEOUT), "server event never arrived")

    if rank == 0:
        rc = c.unpublish(["ctest.service"], [])
        check(rc == PMIX_SUCCESS, "unpublish rc %d" % rc)
    rc = c.fence([wild], [])
    check(rc == PMIX_SUCCESS, "fence 4 rc %d" % rc)
    src = event_src.get(SERVER_EVENT, ({}, []))[0]
    # One write(2) for the whole line: both clients share the server's stdout, and print()
    # writes the text and its newline separately, so two lines could interleave.
    line = "py_client %d: peer %s/%s lookup %s server-event-from %s %s\n" % (
        rank, s(pstr['value']) if pstr else None, pint['value'] if pint else None, looked,
        s(src.get('nspace')), "OK" if not failures else "BAD")
    os.write(1, line.encode())
    rc = c.finalize([])
    check(rc == PMIX_SUCCESS, "finalize rc %d" % rc)
    return 0 if not failures else 1


if __name__ == '__main__':
    sys.exit(main())
