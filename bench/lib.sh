# Shared by bench/run and bench/relay: a throwaway issuer and token, the packaged service on a fresh database,
# a consumer queue for the relay's events. Source it after setting WORK and DB; PORT (the service's HTTP port) is a
# free one unless set.

log() { printf '[bench] %s\n' "$*" >&2; }
psql_db() { psql -h 127.0.0.1 -U postgres -d "$DB" -v ON_ERROR_STOP=1 -qAt "$@"; }
# Seeded records open their movement ledger as the migration that made it opened existing ones, so the auditor (on in
# every benchmark) finds each record equal to its last entry. A build from before the ledger has no table: nothing to do.
OPEN_LEDGERS="DO \$\$ BEGIN IF to_regclass('stock_movements') IS NOT NULL THEN
  INSERT INTO stock_movements (tenant_id, sku, location, seq, kind, on_hand_delta, committed_delta, on_hand_after, committed_after, version)
  SELECT tenant_id, sku, location, 1, 'opening', on_hand, committed, on_hand, committed, version FROM stock_records WHERE movements = 0;
  UPDATE stock_records SET movements = 1 WHERE movements = 0;
END IF; END \$\$"

# A key pair that only this run trusts, and one token for tenant "bench" (BENCH_TOKEN).
make_token() {
  b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/issuer.key" 2>/dev/null
  openssl pkey -in "$WORK/issuer.key" -pubout -out "$WORK/issuer.pub"
  local header payload signature
  header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  payload=$(printf '{"iss":"https://bench.stockhold/issuer","aud":"stockhold","sub":"bench","tenant_id":"bench","groups":["reservations","inventory-admin","ops"],"iat":%d,"exp":%d}' \
    "$(date +%s)" "$(( $(date +%s) + 86400 - 60 ))" | b64url)
  signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$WORK/issuer.key" | b64url)
  export BENCH_TOKEN="$header.$payload.$signature"
}

# A TCP port no socket uses now, below the kernel's ephemeral range (from ip_local_port_range), so an outgoing
# connection cannot take it between two starts of the service on it.
free_port() {
  local port low; low=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  while :; do
    port=$(shuf -i 20000-$((low - 1)) -n 1)
    ss -Hatn "sport = :$port" | grep -q . || { echo "$port"; return; }
  done
}
PORT=${PORT:-$(free_port)}

fresh_database() {
  psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
}

# The JVM flags the image starts with (docker/Dockerfile.jvm's JAVA_OPTS and its environment, its AppCDS archive
# included), in a memory cgroup limited like the pod (k8s/base/deployment.yaml), so the JVM sizes its heap and picks
# its collector as in the pod. Without a writable cgroup (v1 memory controller) -XX:MaxRAM stands in for the limit
# (the heap then matches, the collector may not).
pod_memory_bytes() { local l; l=$(awk '/limits:/ {l = 1} l && /memory:/ {print $2; exit}' k8s/base/deployment.yaml); echo $(( ${l%Mi} * 1024 * 1024 )); }
pod_cgroup() {
  local dir=/sys/fs/cgroup/memory/stockhold-bench
  { [ -w /sys/fs/cgroup/memory ] && mkdir -p "$dir" && pod_memory_bytes > "$dir/memory.limit_in_bytes"; } 2>/dev/null && echo "$dir/cgroup.procs"
}
image_java_opts() {
  local opts jsa
  opts=$(sed -n 's/^ENV JAVA_OPTS="\(.*\)"$/\1/p' docker/Dockerfile.jvm)
  jsa=$(image_archive "${APP:-target/quarkus-app}")
  if [ -n "$jsa" ]; then opts=$(sed "s|-XX:SharedArchiveFile=[^ ]*|-XX:SharedArchiveFile=$jsa|" <<<"$opts")
  else opts=$(sed 's/-XX:SharedArchiveFile=[^ ]* //' <<<"$opts"); fi
  if [ -n "$(pod_cgroup)" ]; then echo "$opts"; else echo "$opts -XX:MaxRAM=$(pod_memory_bytes)"; fi
}
# The AppCDS archive the image starts with, for the quarkus-app directory $1: written the way docker/Dockerfile.jvm
# writes it at build time (one start that stops where it first needs the database), beside the build as
# <dir>.jsa, and again whenever a file of the build is newer. Prints its path; nothing when NO_CDS=1 (a start
# without an archive) or when this JVM wrote none.
image_archive() {
  [ "${NO_CDS:-0}" = 1 ] && return 0
  local dir jsa
  dir=$(cd "$1" && pwd); jsa="$dir.jsa"
  if [ ! -s "$jsa" ] || [ -n "$(find "$dir" -type f -newer "$jsa" -print -quit)" ]; then
    rm -f "$jsa"
    log "writing the image's AppCDS archive for $dir"
    java -XX:ArchiveClassesAtExit="$jsa" -Dquarkus.appcds.generate=true -jar "$dir/quarkus-run.jar" >/dev/null 2>&1 || true
  fi
  if [ -s "$jsa" ]; then echo "$jsa"; fi
}
image_env() { sed -n 's/^ENV \(MALLOC_[A-Z_]*=[^ ]*\)$/\1/p' docker/Dockerfile.jvm | tr '\n' ' '; }

# Starts the packaged jar (prod profile: JSON logs, one line per outcome, to $WORK/service.log) with the image's JVM
# flags (JAVA_OPTS overrides them) and waits for readiness; READY_MS is process start to ready. Extra environment for
# one start: SERVICE_ENV="STOCKHOLD_RELAY_ENABLED=false ..." start_service; APP=dir picks another quarkus-app.
start_service() {
  local t0 procs pod=(); t0=$(date +%s%N)
  # the service as shipped: every default on (the auditor, the tenant and reservation limits); any change is said
  log "service defaults changed for this start: ${SERVICE_ENV:-none}"
  # in the pod-sized cgroup when there is one: sh joins it and execs the rest (one PID throughout)
  procs=$(pod_cgroup || true)
  [ -z "$procs" ] || pod=(sh -c 'echo $$ > "$0"; exec "$@"' "$procs")
  # shellcheck disable=SC2086
  # health and metrics answer on the management interface, a free port of its own (MANAGEMENT_PORT)
  MANAGEMENT_PORT=${MANAGEMENT_PORT:-$(free_port)}
  "${pod[@]}" env $(image_env) ${SERVICE_ENV:-} QUARKUS_HTTP_PORT=$PORT QUARKUS_MANAGEMENT_PORT=$MANAGEMENT_PORT \
  QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/$DB" QUARKUS_DATASOURCE_USERNAME=postgres QUARKUS_DATASOURCE_PASSWORD= \
  MP_JWT_VERIFY_PUBLICKEY_LOCATION="$PWD/$WORK/issuer.pub" MP_JWT_VERIFY_ISSUER=https://bench.stockhold/issuer STOCKHOLD_SECURITY_AUDIENCE=stockhold STOCKHOLD_EVENTS_SCHEMA_BASE_URI=http://localhost/schemas/events/ \
  STOCKHOLD_SECURITY_CURSOR_SECRET="bench-cursor-secret-$(openssl rand -hex 16)" RABBITMQ_USERNAME=guest RABBITMQ_PASSWORD=guest \
    java ${JAVA_OPTS-$(image_java_opts)} ${EXTRA_JAVA:-} -jar "${APP:-target/quarkus-app}/quarkus-run.jar" >> "$WORK/service.log" 2>&1 &
  SERVICE_PID=$!
  until curl -fs "localhost:$MANAGEMENT_PORT/q/health/ready" >/dev/null 2>&1; do
    kill -0 "$SERVICE_PID" 2>/dev/null || { log "service died: see $WORK/service.log"; exit 1; }
    sleep 0.05
  done
  READY_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
}
# bench/FixedRate.java against the running service: RATE [MEASURED_SECONDS, DURATION]; prints its RESULT fields
# (name=value, for eval): LEAD (5) s sent first and not counted, then the measured window.
# Its HTTP client is Vert.x's, from the service's own jars (client_cp); C1 and the serial collector, as the service
# runs, because C2 compiling and G1's threads took more than half of the generator's CPU from the cores it shares.
fixed_rate() {
  CLK_TCK=$(getconf CLK_TCK) java -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$(client_cp)" bench/FixedRate.java "http://127.0.0.1:$PORT" "$BENCH_TOKEN" "$SKUS" "$1" "${LEAD:-5}" "${2:-$DURATION}" "$SERVICE_PID" \
    | grep '^RESULT' | sed 's/^RESULT //'
}
# A class path of the packaged service's jars, each named by its prefix (group.artifact) in lib/main.
service_cp() { local jar; for jar; do ls target/quarkus-app/lib/main/"$jar"-*.jar; done 2>/dev/null | tr '\n' ':'; }
client_cp() { service_cp io.vertx.vertx-core io.netty.netty com.fasterxml.jackson.core.jackson-core; }
stop_service() { kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; }
# The running service's utime + stime in clock ticks, and a field of its /proc status in MB (VmRSS, VmHWM)
service_ticks() { awk '{print $14 + $15}' "/proc/$SERVICE_PID/stat"; }
service_mb() { awk -v k="$1:" '$1 == k {printf "%d", $2 / 1024}' "/proc/$SERVICE_PID/status"; }
# Closed-loop reservations against the running service for $1 seconds (bench/reserve.lua; WORKLOAD uniform and 16
# CONNECTIONS unless set): prints wrk's RESULT fields (name=value, for eval), nothing if wrk failed
closed_loop() {
  BENCH_WORKLOAD=${WORKLOAD:-uniform} BENCH_SKUS=$SKUS BENCH_RUN="loop-$RANDOM$RANDOM" wrk -t2 -c"${CONNECTIONS:-16}" -d"$1s" --timeout 10s \
    -s bench/reserve.lua "http://127.0.0.1:$PORT" 2>/dev/null | grep '^RESULT' | sed 's/^RESULT //' || true
}
# Autovacuum is off on these machines: a window that should not pay for the dead rows of the one before starts here
vacuum_store() { psql_db -c "VACUUM stock_records, idempotency_records, reservations, reservation_lines, outbox_events"; }
# A window that should pay neither for the dead rows nor for the WAL of the one before starts here: vacuumed tables and
# a checkpoint just taken, so the checkpoint that WAL would trigger does not start inside the window (each first change
# of a page after a checkpoint writes the whole page, and the commits wait for that WAL). Every such window then pays
# for its own first changes alike.
fresh_pages() { vacuum_store; psql_db -c CHECKPOINT >/dev/null; }

# CPU per process group (cgroup v1 cpuacct, writable as root): PostgreSQL's postmaster and every backend (new ones
# fork from the postmaster and inherit the group) and RabbitMQ's processes each in a group of their own, so
# bench/FixedRate.java reads their cpuacct.usage, which keeps the CPU of backends that exited during the window.
# Exports PG_CPUACCT and MQ_CPUACCT; cpu_groups_stop puts the processes back.
CPUACCT=/sys/fs/cgroup/cpuacct
cpu_groups_start() {
  [ -w "$CPUACCT/cgroup.procs" ] || { log "no writable cgroup v1 cpuacct: PostgreSQL and RabbitMQ CPU not measured"; return 0; }
  mkdir -p "$CPUACCT/stockhold-pg" "$CPUACCT/stockhold-mq"
  local pid
  for pid in $(pgrep -x postgres); do echo "$pid" > "$CPUACCT/stockhold-pg/cgroup.procs" 2>/dev/null || true; done
  for pid in $(pgrep -f 'beam.smp|epmd|erl_child_setup|inet_gethost'); do echo "$pid" > "$CPUACCT/stockhold-mq/cgroup.procs" 2>/dev/null || true; done
  export PG_CPUACCT=$CPUACCT/stockhold-pg MQ_CPUACCT=$CPUACCT/stockhold-mq
}
cpu_groups_stop() {
  local group pid
  for group in stockhold-pg stockhold-mq; do
    [ -f "$CPUACCT/$group/cgroup.procs" ] || continue
    while read -r pid; do echo "$pid" > "$CPUACCT/cgroup.procs" 2>/dev/null || true; done < "$CPUACCT/$group/cgroup.procs"
  done
}

# A durable queue bound to every event, so the relay's events are routed and confirmed as in production. A run drops
# its queue at the end (drop_queue): a queue left bound doubles what the broker does for every later run's events.
drop_queue() { stop_consumer; rabbitmqctl -q delete_queue "$1" >/dev/null 2>&1 || true; }
queue_cp() { service_cp com.rabbitmq.amqp-client org.slf4j.slf4j-api; }
declare_queue() {
  java -cp "$(queue_cp)" bench/DeclareQueue.java "$1" 2>/dev/null || log "could not bind the queue $1: relay events will be unroutable"
}
# The same queue with a consumer that acknowledges every message, as downstream services keep a production queue near
# empty (DeclareQueue.java says why it matters). The consumer's CPU is not counted as RabbitMQ's; the broker's work to
# deliver each event and take its acknowledgement is. stop_consumer (drop_queue calls it) ends it.
CONSUMER_PID=
consume_queue() {
  stop_consumer
  java -cp "$(queue_cp)" bench/DeclareQueue.java "$1" consume > "$WORK/consumer.out" 2>/dev/null &
  CONSUMER_PID=$!
  until grep -q consuming "$WORK/consumer.out" 2>/dev/null; do
    kill -0 "$CONSUMER_PID" 2>/dev/null || { log "could not consume the queue $1: relay events will pile up in it"; CONSUMER_PID=; return 0; }
    sleep 0.1
  done
}
stop_consumer() {
  [ -n "$CONSUMER_PID" ] || return 0
  kill "$CONSUMER_PID" 2>/dev/null || true; wait "$CONSUMER_PID" 2>/dev/null || true; CONSUMER_PID=
}

# The relay's lag histogram (stockhold_outbox_publish_lag_seconds): "le count" lines, summed over label sets
lag_buckets() {
  curl -s "localhost:$MANAGEMENT_PORT/q/metrics" | grep '^stockhold_outbox_publish_lag_seconds_bucket' \
    | sed -E 's/.*le="([^"]+)".* ([0-9.eE+-]+)$/\1 \2/' | awk '{n[$1] += $2} END {for (l in n) print l, n[l]}' \
    | sed 's/^+Inf/1e99/' | sort -g
}
# A quantile (0.99 unless given) of the lag in ms over one window: the difference of two lag_buckets snapshots
# (files), read as the upper bound of the bucket that holds it
lag_quantile() {
  awk 'NR == FNR {b[$1] = $2; next} {print $1, b[$1] + 0, $2}' "$1" "$2" | sort -g | awk -v q="${3:-0.99}" '{le[NR] = $1; c[NR] = $3 - $2} END {t = c[NR]; for (i = 1; i <= NR; i++) if (t > 0 && c[i] >= q * t) {printf "%.1f", le[i] * 1000; exit}; print "-"}'
}
# The one-statement reservations placed on a guessed location so far: "hits misses"
guesses() {
  curl -s "localhost:$MANAGEMENT_PORT/q/metrics" | grep '^stockhold_reservation_location_guesses_total' \
    | awk '/outcome="hit"/ {h += $NF} /outcome="miss"/ {m += $NF} END {printf "%d %d\n", h, m}'
}
# The share of guesses that missed between two guesses snapshots ("hits misses" each), in percent; "-" without guesses
guess_miss_pct() {
  echo "$1 $2" | awk '{h = $3 - $1; m = $4 - $2; if (h + m > 0) printf "%.2f", 100 * m / (h + m); else print "-"}'
}
# Checkpoints begun and full-page images written so far: a window that overlaps the start of a checkpoint writes a
# full page for the first change of every page after it, and its commits wait for that WAL
# The relay's events published and publish calls so far (two numbers): events per publish over a window is the ratio
# of their differences
publishes() {
  curl -s "localhost:$MANAGEMENT_PORT/q/metrics" | awk '/^stockhold_outbox_published_total/ {e += $NF}
    /^stockhold_outbox_publish_call_seconds_count/ {c += $NF} END {printf "%d %d\n", e, c}'
}
checkpoints() { psql_db -qAtc "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter"; }
wal_fpi() { psql_db -qAtc "SELECT wal_fpi FROM pg_stat_wal"; }
# Transactions committed in the database so far (autocommit statements count one each). A backend reports its counts
# when it goes idle, at most once a second, so a window's difference is exact only to about a second of traffic
commits() { psql_db -qAtc "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"; }
reservations_written() { psql_db -qAtc "SELECT count(*) FROM reservations"; }
# N outbox rows as committed reservations write them: half created, half confirmed, two events per reservation in
# write order, CloudEvents JSON of the real size. Prints the commit time (epoch seconds).
insert_events() {
  psql_db -c "WITH r AS MATERIALIZED (SELECT n, gen_random_uuid() AS id FROM generate_series(1, $1 / 2) n),
         e AS MATERIALIZED (SELECT r.n, r.id AS aggregate, t.k, t.type, t.status, gen_random_uuid() AS id
                              FROM r CROSS JOIN (VALUES (1, 'dev.stockhold.reservation.created.v1', 'HELD'),
                                                        (2, 'dev.stockhold.reservation.confirmed.v1', 'CONFIRMED')) t(k, type, status))
    INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, created_at, available_at)
    SELECT e.id, 'bench', e.aggregate, e.type,
           json_build_object('specversion', '1.0', 'id', e.id, 'source', '/stockhold', 'type', e.type, 'subject', e.aggregate,
             'time', now(), 'datacontenttype', 'application/json', 'tenantid', 'bench',
             'data', json_build_object('id', e.aggregate, 'status', e.status, 'lines', json_build_array(json_build_object('sku', 'SKU-' || e.n, 'quantity', 1)),
                                       'expiresAt', now() + interval '15 minutes', 'createdAt', now()))::text,
           now(), now()
      FROM e ORDER BY e.n, e.k" -c "SELECT extract(epoch FROM clock_timestamp())"
}

# Waits (at most 30 s) until the relay has published every pending event, so that a window's lag histogram holds the
# window's own events and not the backlog of a closed-loop warm-up before it
outbox_drained() {
  local i
  for i in $(seq 1 300); do
    [ "$(psql_db -c "SELECT count(*) FROM outbox_events WHERE status = 'PENDING'")" = 0 ] && return 0
    sleep 0.1
  done
  log "the outbox still held pending events after 30 s"
}

# The median of the numbers on stdin, one a line (of an even count, the mean of the middle two); "-" for none.
# median_spread adds the spread: "median (min-max)".
median() { sort -g | awk '{a[NR] = $1} END {if (!NR) {print "-"; exit} printf "%.2f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
median_spread() { sort -g | awk '{a[NR] = $1} END {if (!NR) {print "-"; exit} printf "%.2f (%.2f-%.2f)", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2, a[1], a[NR]}'; }

# One goal row: name, measured ("value" or "median (min-max)"), target text, operator (<=, <, >=), bound; and its status
goal() {
  printf '%-78s %20s %8s  %s\n' "$1" "$2" "$3" "$(awk -v v="${2%% *}" -v op="$4" -v g="$5" 'BEGIN {
    if (v == "" || v == "-") { print "no data"; exit }
    ok = (op == ">=") ? v + 0 >= g : (op == "<") ? v + 0 < g : v + 0 <= g; print ok ? "met" : "NOT MET" }')"
}
# ms of one auditor sample on 1,000,000 reservation lines with statistics from empty tables: AuditorPlanTest's own
# EXPLAIN ANALYZE, run here (about a minute)
auditor_ms() {
  ./mvnw -B test -Dtest=AuditorPlanTest 2>&1 | grep -h '\[audit plan\] [0-9]* lines' | tail -1 | sed -E 's/.* buffers in ([0-9.]+) ms;.*/\1/'
}

# The seeded store of bench/run and bench/soak: SKUS records of tenant "bench" and one hot record, each with a billion
# units and its ledger opened, on vacuumed and analyzed tables (the statistics every later window plans with)
seed_store() {
  psql_db -c "TRUNCATE idempotency_records, reservation_lines, reservations, outbox_events, stock_items, stock_records, stock_movements, locations" \
    -c "INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received) SELECT 'bench', 'SKU-' || n, 'default', 1000000000, 0, 1000000000 FROM generate_series(1, $SKUS) n" \
    -c "INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received) VALUES ('bench', 'HOT', 'default', 1000000000, 0, 1000000000)" \
    -c "$OPEN_LEDGERS" -c "VACUUM ANALYZE"
}

# pg_stat_statements, where PGSS=1 asks for it: shared_preload_libraries takes a restart (pgss_load), and pgss_restore
# (in the caller's EXIT trap) unloads it again. Planning time is counted only with track_planning (known once the
# library is loaded); plans per call says which statements are planned on every call.
PGSS=${PGSS:-0}
PG_CLUSTER="$(ls /etc/postgresql | head -n 1)"
pgss_load() {
  [ "$PGSS" = 1 ] || return 0
  psql -h 127.0.0.1 -U postgres -qc "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"
  pg_ctlcluster --skip-systemctl-redirect "$PG_CLUSTER" main restart
  psql -h 127.0.0.1 -U postgres -qc "ALTER SYSTEM SET pg_stat_statements.track_planning = on" -c "SELECT pg_reload_conf()"
}
pgss_restore() {
  if [ "$PGSS" = 1 ] && [ -n "$(psql -h 127.0.0.1 -U postgres -qAtc "SHOW shared_preload_libraries" | grep pg_stat_statements)" ]; then
    log "unloading pg_stat_statements"
    psql -h 127.0.0.1 -U postgres -qc "ALTER SYSTEM RESET pg_stat_statements.track_planning" -c "ALTER SYSTEM RESET shared_preload_libraries"
    pg_ctlcluster --skip-systemctl-redirect "$PG_CLUSTER" main restart
  fi
}
# in the run's database, once it exists
pgss_create() { [ "$PGSS" = 1 ] && psql_db -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" || true; }
pgss_reset() { [ "$PGSS" = 1 ] && psql_db -c "SELECT pg_stat_statements_reset()" >/dev/null || true; }
# the statements since pgss_reset, per request ($1 requests): PostgreSQL ms and calls per request (planning +
# execution) and plans per call, into $WORK/statements.$2
pgss_report() {
  [ "$PGSS" = 1 ] || return 0
  psql_db -F ' | ' -c "SELECT round(sum(total_exec_time + total_plan_time)::numeric / $1, 4) AS ms_per_request,
      round(sum(calls)::numeric / $1, 3) AS calls_per_request,
      round(sum(plans)::numeric / greatest(sum(calls), 1), 2) AS plans_per_call,
      left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS statement
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    GROUP BY query ORDER BY 1 DESC LIMIT 15" > "$WORK/statements.$2"
}
