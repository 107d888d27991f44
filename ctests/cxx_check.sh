#!/bin/bash
# C++ compile check of the installed headers: a small translation unit that includes pmix.h,
# pmix_server.h and pmix_tool.h and expands the allocation and release macros (whose casts
# and helpers are where C and C++ differ) is compiled, not run, with -Wall -Wextra -Werror
# under several language standards.
# usage: cxx_check.sh [INCLUDE_DIR]   (default: the checkout's include/; CXX=... to choose)
set -u
here=$(cd "$(dirname "$0")" && pwd)
inc=${1:-$here/../include}
cxx=${CXX:-g++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/check.cpp" <<'EOF'
#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

// Not called: only has to compile.
int exercise(void)
{
    pmix_info_t *info;
    pmix_value_t *val = NULL, v;
    pmix_data_array_t *darray;
    pmix_proc_t *procs, me;
    pmix_app_t *apps;
    pmix_query_t *queries;
    pmix_pdata_t *pdata;
    pmix_coord_t spare[1], *coords = spare; // the reference's COORD_CREATE writes to *coords
    pmix_device_distance_t *dist;
    pmix_regattr_t *attrs;
    pmix_data_buffer_t *buf;
    pmix_status_t rc;
    void *list;
    char **argv = NULL, *joined;
    int n = 3;

    PMIX_INFO_CREATE(info, 2);
    PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &n, PMIX_INT);
    PMIX_INFO_REQUIRED(&info[0]);
    PMIX_INFO_FREE(info, 2);
    PMIX_VALUE_CONSTRUCT(&v);
    PMIX_VALUE_XFER(rc, val, &v);
    PMIX_VALUE_RELEASE(val);
    PMIX_DATA_ARRAY_CREATE(darray, 4, PMIX_INFO);
    PMIX_DATA_ARRAY_FREE(darray);
    PMIX_PROC_CREATE(procs, 2);
    PMIX_PROC_LOAD(&procs[0], "ns", 0);
    PMIX_XFER_PROCID(&me, &procs[0]);
    PMIX_PROC_FREE(procs, 2);
    PMIX_APP_CREATE(apps, 1);
    PMIX_APP_INFO_CREATE(&apps[0], 1);
    PMIX_APP_FREE(apps, 1);
    PMIX_QUERY_CREATE(queries, 1);
    PMIX_QUERY_QUALIFIERS_CREATE(&queries[0], 1);
    PMIX_QUERY_FREE(queries, 1);
    PMIX_PDATA_CREATE(pdata, 1);
    PMIX_PDATA_FREE(pdata, 1);
    PMIX_COORD_CREATE(coords, 1, 2);
    PMIX_COORD_FREE(coords, 1);
    PMIX_DEVICE_DIST_CREATE(dist, 2);
    PMIX_DEVICE_DIST_FREE(dist, 2);
    PMIX_REGATTR_CREATE(attrs, 1);
    PMIX_REGATTR_FREE(attrs, 1);
    PMIX_DATA_BUFFER_CREATE(buf);
    PMIX_DATA_BUFFER_RELEASE(buf);
    PMIX_ARGV_APPEND(rc, argv, "a");
    PMIX_ARGV_JOIN(joined, argv, ',');
    pmix_free(joined);
    PMIX_ARGV_FREE(argv);
    PMIX_INFO_LIST_START(list);
    PMIX_INFO_LIST_ADD(rc, list, PMIX_TIMEOUT, &n, PMIX_INT);
    PMIX_INFO_LIST_RELEASE(list);
    PMIx_Heartbeat();
    return rc + (PMIX_CHECK_TRUE(&v) ? 1 : 0) + (PMIX_CHECK_PROCID(&me, &me) ? 1 : 0);
}
EOF
fail=0
for std in c++11 c++17 c++20; do
  if "$cxx" -std=$std -Wall -Wextra -Werror -Wno-unused-parameter -I"$inc" -c "$tmp/check.cpp" \
       -o "$tmp/check.o" 2>"$tmp/err"; then
    echo "ok   cxx $std"
  else
    echo "FAIL cxx $std"; head -30 "$tmp/err" | sed 's/^/  /'; fail=1
  fi
done
exit $fail
