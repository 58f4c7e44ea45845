#!/usr/bin/env bash
# A PostgreSQL cluster managed by Patroni, on one machine, for tests and trials: one etcd, two or
# more Patroni members (PostgreSQL primary + streaming standbys, one of them synchronous) on local
# ports, and HAProxy routing to the current leader. Debian packages: postgresql, patroni,
# etcd-server, haproxy (`.ci/run` installs them). For machines of their own, see
# docs/deployment.md ("High availability"): the same templates (patroni.yml.in, haproxy.cfg.in).
#
#   deploy/ha/cluster.sh start --dir DIR [--members 3] [--sync 1] [--base-port 15400]
#                              [--ttl 20] [--loop-wait 5] [--retry-timeout 5]
#   deploy/ha/cluster.sh env --dir DIR           # DATABASE_URL=... and the other addresses
#   deploy/ha/cluster.sh status --dir DIR        # patronictl list
#   deploy/ha/cluster.sh leader --dir DIR        # name of the current leader (exit 1: none)
#   deploy/ha/cluster.sh kill-leader --dir DIR   # SIGKILL the leader's Patroni and PostgreSQL
#   deploy/ha/cluster.sh kill-member NAME --dir DIR / start-member NAME --dir DIR
#   deploy/ha/cluster.sh stop --dir DIR [--fast] [--remove]  # stops everything (--fast: SIGKILL at
#                                                           # once; --remove: and deletes DIR)
#
# Ports from --base-port P: etcd P (peers P+1), HAProxy primary P+2, replicas P+3, stats P+4;
# member pgN: PostgreSQL P+10+N, Patroni REST API P+20+N. Run as root, the members run as the
# `postgres` user (PostgreSQL refuses root), so DIR must be reachable by it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "cluster.sh: $*" >&2; exit 2; }
log() { echo "cluster.sh: $*" >&2; }

command="${1:-}"
[ -n "$command" ] || die "usage: cluster.sh start|env|status|leader|kill-leader|kill-member|start-member|stop --dir DIR [options]"
shift
member_arg=""
if [ "$command" = kill-member ] || [ "$command" = start-member ]; then
  member_arg="${1:-}"
  [ -n "$member_arg" ] || die "$command needs a member name (pg1, pg2, ...)"
  shift
fi

dir="" members=3 sync=1 base_port=15400 ttl=20 loop_wait=5 retry_timeout=5 remove=0 fast=0
while [ $# -gt 0 ]; do
  case "$1" in --dir | --members | --sync | --base-port | --ttl | --loop-wait | --retry-timeout) [ $# -ge 2 ] || die "$1 needs a value" ;; esac
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --members) members="$2"; shift 2 ;;
    --sync) sync="$2"; shift 2 ;;
    --base-port) base_port="$2"; shift 2 ;;
    --ttl) ttl="$2"; shift 2 ;;
    --loop-wait) loop_wait="$2"; shift 2 ;;
    --retry-timeout) retry_timeout="$2"; shift 2 ;;
    --remove) remove=1; shift ;;
    --fast) fast=1; shift ;;
    *) die "unknown option $1" ;;
  esac
done
[ -n "$dir" ] || die "--dir is required"
integer() { [[ "$2" =~ ^[0-9]+$ ]] || die "$1 must be a whole number (got '$2')"; }
integer --members "$members"; integer --sync "$sync"; integer --base-port "$base_port"
integer --ttl "$ttl"; integer --loop-wait "$loop_wait"; integer --retry-timeout "$retry_timeout"

pg_bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
haproxy_bin="${HAPROXY_PATH:-$(command -v haproxy || echo /usr/sbin/haproxy)}"
host=127.0.0.1
password=timegate

# As root, the members run as `postgres`.
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups --); fi

load_state() {
  [ -f "$dir/cluster.env" ] || die "no cluster in $dir (start one first)"
  # shellcheck disable=SC1091
  . "$dir/cluster.env"
}

rest_port() { echo $((base_port + 20 + $1)); }
pg_port() { echo $((base_port + 10 + $1)); }

# The name of the member whose Patroni answers GET /primary with 200, or nothing.
current_leader() {
  local i
  for i in $(seq 1 "$members"); do
    if [ "$(curl -s -o /dev/null -m 1 -w '%{http_code}' "http://$host:$(rest_port "$i")/primary" || true)" = 200 ]; then
      echo "pg$i"
      return 0
    fi
  done
  return 1
}

wait_for() { # description, seconds, command...
  local what="$1" seconds="$2"
  shift 2
  local until=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$until" ] || die "timed out after ${seconds}s waiting for $what (logs in $dir)"
    sleep 0.2
  done
}

# Members' view of the cluster (GET /cluster of any member that answers), as "name role state lag" lines.
cluster_members() {
  local i
  for i in $(seq 1 "$members"); do
    if curl -s -m 1 "http://$host:$(rest_port "$i")/cluster" 2>/dev/null | python3 -c '
import json, sys
for m in json.load(sys.stdin).get("members", []):
    print(m["name"], m.get("role", "?"), m.get("state", "?"), m.get("lag", 0))
' 2>/dev/null; then return 0; fi
  done
  return 1
}

cluster_ready() { # a leader, every member running, and the synchronous standbys asked for
  local lines running syncs want
  lines="$(cluster_members)" || return 1
  running=$(echo "$lines" | awk '$3 == "running" || $3 == "streaming" { n++ } END { print n + 0 }')
  syncs=$(echo "$lines" | awk '$2 == "sync_standby" { n++ } END { print n + 0 }')
  want=$((sync < members - 1 ? sync : members - 1))
  echo "$lines" | awk '$2 == "leader" { found = 1 } END { exit !found }' && [ "$running" -eq "$members" ] && [ "$syncs" -ge "$want" ]
}

database_answers() {
  PGPASSWORD=$password PGCONNECT_TIMEOUT=2 psql -X -q -t -h "$host" -p "$((base_port + 2))" -U timegate -d timegate -c 'select 1' >/dev/null 2>&1
}

start_member() { # index
  local i="$1" mdir="$dir/pg$1"
  "${as_postgres[@]}" bash -c 'nohup patroni "$1" >>"$2" 2>&1 & echo $! >"$3"' _ "$mdir/patroni.yml" "$mdir/patroni.out" "$mdir/patroni.pid"
}

member_pids() { # index: Patroni, the postmaster and its children, whichever are alive
  local mdir="$dir/pg$1" pids=() postmaster
  [ -f "$mdir/patroni.pid" ] && pids+=("$(cat "$mdir/patroni.pid")")
  if [ -f "$mdir/data/postmaster.pid" ]; then
    postmaster="$(head -1 "$mdir/data/postmaster.pid")"
    if kill -0 "$postmaster" 2>/dev/null; then
      pids+=("$postmaster")
      # shellcheck disable=SC2207
      pids+=($(pgrep -P "$postmaster" || true))
    fi
  fi
  echo "${pids[@]}"
}

kill_member() { # index: the machine "dies": no clean shutdown, nothing told
  local pids
  # shellcheck disable=SC2207
  pids=($(member_pids "$1"))
  [ "${#pids[@]}" -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
}

case "$command" in
  start)
    [ "$members" -ge 2 ] && [ "$members" -le 9 ] || die "--members must be 2 to 9"
    [ "$sync" -lt "$members" ] || die "--sync must be below --members"
    [ $((loop_wait + 2 * retry_timeout)) -le "$ttl" ] || die "Patroni needs loop_wait + 2 x retry_timeout <= ttl"
    [ -x "$pg_bin/postgres" ] || die "PostgreSQL not found in $pg_bin (apt-get install postgresql, or set PG_BIN)"
    for tool in patroni etcd "$haproxy_bin" psql curl python3; do command -v "$tool" >/dev/null || die "$tool not found (apt-get install postgresql patroni etcd-server haproxy)"; done
    [ ! -e "$dir/cluster.env" ] || die "$dir already holds a cluster (stop --remove it first)"
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    chmod 755 "$dir"
    if [ "${#as_postgres[@]}" -gt 0 ] && ! "${as_postgres[@]}" test -x "$dir"; then
      die "the postgres user cannot reach $dir: use a folder every user may enter (for example under /tmp with chmod 755 parents)"
    fi
    cat >"$dir/cluster.env" <<EOF
members=$members
sync=$sync
base_port=$base_port
EOF

    log "etcd on $host:$base_port"
    mkdir -p "$dir/etcd"
    nohup etcd --name etcd1 --data-dir "$dir/etcd/data" \
      --listen-client-urls "http://$host:$base_port" --advertise-client-urls "http://$host:$base_port" \
      --listen-peer-urls "http://$host:$((base_port + 1))" --initial-advertise-peer-urls "http://$host:$((base_port + 1))" \
      --initial-cluster "etcd1=http://$host:$((base_port + 1))" --initial-cluster-state new \
      --log-level warn >"$dir/etcd/etcd.out" 2>&1 &
    echo $! >"$dir/etcd/etcd.pid"
    wait_for etcd 30 curl -sf "http://$host:$base_port/health"

    cat >"$dir/post-bootstrap.sh" <<EOF
#!/bin/sh
# Patroni runs this once on the first leader, with a connection string as \$1.
set -e
psql -X -q -v ON_ERROR_STOP=1 "\$1" -c "create role timegate login password '$password'" -c "create database timegate owner timegate"
EOF
    chmod 755 "$dir/post-bootstrap.sh"
    synchronous_mode=false
    [ "$sync" -gt 0 ] && synchronous_mode=true
    for i in $(seq 1 "$members"); do
      mdir="$dir/pg$i"
      mkdir -p "$mdir/log"
      sed -e "s|@SCOPE@|timegate|" -e "s|@NAME@|pg$i|" -e "s|@LOG_DIR@|$mdir/log|" \
        -e "s|@LISTEN_HOST@|$host|g" -e "s|@HOST@|$host|g" -e "s|@REST_PORT@|$(rest_port "$i")|g" -e "s|@PG_PORT@|$(pg_port "$i")|g" \
        -e "s|@ETCD_HOSTS@|$host:$base_port|" -e "s|@TTL@|$ttl|" -e "s|@LOOP_WAIT@|$loop_wait|" -e "s|@RETRY_TIMEOUT@|$retry_timeout|" \
        -e "s|@SYNCHRONOUS_MODE@|$synchronous_mode|" -e "s|@SYNCHRONOUS_COUNT@|$((sync > 0 ? sync : 1))|" \
        -e "s|@CLIENT_NETWORK@|127.0.0.1/32|g" -e "s|@POST_BOOTSTRAP@|$dir/post-bootstrap.sh|" \
        -e "s|@DATA_DIR@|$mdir/data|" -e "s|@PG_BIN@|$pg_bin|" -e "s|@PGPASS@|$mdir/pgpass|" -e "s|@SOCKET_DIR@|$mdir|" \
        -e "s|@SUPERUSER_PASSWORD@|$password|" -e "s|@REPLICATION_PASSWORD@|$password|" -e "s|@REWIND_PASSWORD@|$password|" \
        "$here/patroni.yml.in" >"$mdir/patroni.yml"
      chmod 700 "$mdir"
      [ "${#as_postgres[@]}" -eq 0 ] || chown -R postgres:postgres "$mdir"
    done

    log "pg1 bootstraps the cluster (PostgreSQL $(basename "$(dirname "$pg_bin")"), Patroni $(patroni --version | awk '{ print $2 }'))"
    start_member 1
    wait_for "pg1 to lead" 300 current_leader
    for i in $(seq 2 "$members"); do
      log "pg$i joins as a standby"
      start_member "$i"
    done

    primary_servers="" replica_servers=""
    for i in $(seq 1 "$members"); do
      primary_servers+="  server pg$i $host:$(pg_port "$i") check port $(rest_port "$i")"$'\n'
      replica_servers+="  server pg$i $host:$(pg_port "$i") check port $(rest_port "$i")"$'\n'
    done
    mkdir -p "$dir/haproxy"
    python3 - "$here/haproxy.cfg.in" "$dir/haproxy/haproxy.cfg" "$host:$((base_port + 2))" "$host:$((base_port + 3))" "$host:$((base_port + 4))" \
      "$primary_servers" "$replica_servers" <<'EOF'
import sys
template, target, primary, replicas, stats, primary_servers, replica_servers = sys.argv[1:]
text = open(template).read()
for name, value in (("PRIMARY_BIND", primary), ("REPLICA_BIND", replicas), ("STATS_BIND", stats),
                    ("PRIMARY_SERVERS", primary_servers.rstrip("\n")), ("REPLICA_SERVERS", replica_servers.rstrip("\n"))):
    text = text.replace("@" + name + "@", value)
open(target, "w").write(text)
EOF
    "$haproxy_bin" -c -q -f "$dir/haproxy/haproxy.cfg" || die "HAProxy refused $dir/haproxy/haproxy.cfg"
    "$haproxy_bin" -D -p "$dir/haproxy/haproxy.pid" -f "$dir/haproxy/haproxy.cfg"

    wait_for "every member running with its synchronous standby" 600 cluster_ready
    wait_for "the database through HAProxy" 60 database_answers
    log "ready: leader $(current_leader)"
    "$0" env --dir "$dir"
    ;;

  env)
    load_state
    echo "DATABASE_URL=postgres://timegate:$password@$host:$((base_port + 2))/timegate"
    echo "DATABASE_REPLICA_URL=postgres://timegate:$password@$host:$((base_port + 3))/timegate"
    echo "HAPROXY_STATS_URL=http://$host:$((base_port + 4))/"
    echo "ETCD_URL=http://$host:$base_port"
    for i in $(seq 1 "$members"); do echo "PATRONI_PG${i}_URL=http://$host:$(rest_port "$i")"; done
    ;;

  status)
    load_state
    patronictl -c "$dir/pg1/patroni.yml" list
    ;;

  leader)
    load_state
    current_leader
    ;;

  kill-leader)
    load_state
    leader="$(current_leader)" || die "no leader to kill"
    kill_member "${leader#pg}"
    echo "$leader"
    ;;

  kill-member)
    load_state
    kill_member "${member_arg#pg}"
    ;;

  start-member)
    load_state
    i="${member_arg#pg}"
    [ -f "$dir/pg$i/patroni.yml" ] || die "no member $member_arg"
    if [ -f "$dir/pg$i/patroni.pid" ] && kill -0 "$(cat "$dir/pg$i/patroni.pid")" 2>/dev/null; then die "$member_arg is running"; fi
    start_member "$i"
    ;;

  stop)
    if [ -f "$dir/cluster.env" ]; then
      load_state
      [ -f "$dir/haproxy/haproxy.pid" ] && kill "$(cat "$dir/haproxy/haproxy.pid")" 2>/dev/null || true
      for i in $(seq 1 "$members"); do [ -f "$dir/pg$i/patroni.pid" ] && kill -TERM "$(cat "$dir/pg$i/patroni.pid")" 2>/dev/null || true; done
      # Patroni stops its PostgreSQL on SIGTERM; whatever is still running after 30 s is killed.
      until=$((SECONDS + (fast ? 0 : 30)))
      while [ "$SECONDS" -lt "$until" ]; do
        alive=0
        for i in $(seq 1 "$members"); do
          for pid in $(member_pids "$i"); do kill -0 "$pid" 2>/dev/null && alive=1; done
        done
        [ "$alive" -eq 0 ] && break
        sleep 0.2
      done
      for i in $(seq 1 "$members"); do kill_member "$i"; done
      [ -f "$dir/etcd/etcd.pid" ] && kill "$(cat "$dir/etcd/etcd.pid")" 2>/dev/null || true
    fi
    if [ "$remove" -eq 1 ]; then rm -rf "$dir"; fi
    ;;

  *)
    die "unknown command $command"
    ;;
esac
