#!/usr/bin/env bash
# Runs every command of docs/deploy.md, line for line, on throw-away directories, ports and a
# throw-away PostgreSQL database (tests/reliability/deploy-doc.test.ts checks each line of the doc
# is here). Needs the build (npm run build) and PostgreSQL at $PG_BASE. Optional parts:
#   DEPLOY_CHECK_INSTALL=1  also npm ci and npm run build
#   DEPLOY_CHECK_SYSTEM=1   also install the unit and systemctl (root, a machine where that is safe)
# caddy and nginx are checked when installed (apt-get install caddy nginx-light), skipped otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
PG_BASE="${PG_BASE:-postgres://postgres@127.0.0.1:5432}"
WORK="$(mktemp -d)"
DB_NAME="sb_deploy_$$"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  psql "$PG_BASE/test" -qc "drop database if exists $DB_NAME with (force)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
have() { command -v "$1" >/dev/null 2>&1; }
skip() { echo "deploy-check: skipped ($1)"; }
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
BACKUP_DIR="$WORK/backups"
mkdir -p "$BACKUP_DIR"
export PWA_DIR=/nonexistent SEED_DEMO=false LOG_LEVEL=warn HOST=127.0.0.1 SMTP_URL=
unset DATABASE_URL JWT_SECRET FILE_STORE S3_BUCKET || true

if [ "${DEPLOY_CHECK_INSTALL:-}" = 1 ]; then
npm ci
npm run build
else skip "npm ci, npm run build: DEPLOY_CHECK_INSTALL=1"; fi

echo "== one machine"
export DATA_DIR="$WORK/single"
export ADMIN_EMAIL="root@deploy-check.example" ADMIN_PASSWORD="deploy-check-$$-password"
npm run admin:create -- --email "$ADMIN_EMAIL" --password "$ADMIN_PASSWORD"
systemd-analyze verify deploy/survey-bird.service
if [ "${DEPLOY_CHECK_SYSTEM:-}" = 1 ]; then
install -m 644 deploy/survey-bird.service /etc/systemd/system/survey-bird.service
systemctl daemon-reload
systemctl enable --now survey-bird
else skip "installing the unit and systemctl: DEPLOY_CHECK_SYSTEM=1"; fi
if have caddy; then
caddy validate --config deploy/Caddyfile --adapter caddyfile
else skip "caddy is not installed"; fi
PORT_S="$(free_port)"
PORT="$PORT_S" node --max-semi-space-size=2 apps/api/dist/server.js & PIDS+=($!)
BASE_URL="http://127.0.0.1:$PORT_S"
curl -fsS --retry 60 --retry-connrefused --retry-delay 1 "$BASE_URL/readyz" >/dev/null
curl -fsS "$BASE_URL/healthz"
curl -fsS "$BASE_URL/readyz"
npm run db:backup -- --to "$BACKUP_DIR/survey-bird.sqlite"
mkdir -p "$DATA_DIR/uploads"
tar -C "$DATA_DIR" -czf "$BACKUP_DIR/uploads.tar.gz" uploads
kill -TERM "${PIDS[0]}"
wait "${PIDS[0]}"
PIDS=()

echo "== several instances on one PostgreSQL"
psql "$PG_BASE/test" -qc "create database $DB_NAME"
export DATABASE_URL="$PG_BASE/$DB_NAME"
unset DATA_DIR
PORT_A="$(free_port)"
PORT_B="$(free_port)"
DATA_DIR="$WORK/a" PORT="$PORT_A" node --max-semi-space-size=2 apps/api/dist/server.js & PID_A=$!
DATA_DIR="$WORK/b" PORT="$PORT_B" node --max-semi-space-size=2 apps/api/dist/server.js & PID_B=$!
PIDS=("$PID_A" "$PID_B")
curl -fsS --retry 60 --retry-connrefused --retry-delay 1 "http://127.0.0.1:$PORT_A/readyz"
curl -fsS --retry 60 --retry-connrefused --retry-delay 1 "http://127.0.0.1:$PORT_B/readyz"
if have caddy; then
caddy validate --config deploy/Caddyfile.several --adapter caddyfile
else skip "caddy is not installed"; fi
if have nginx; then
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=survey.example.org -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
sed -e "s#/etc/letsencrypt/live/survey.example.org/fullchain.pem#$WORK/cert.pem#" -e "s#/etc/letsencrypt/live/survey.example.org/privkey.pem#$WORK/key.pem#" deploy/nginx-several.conf > "$WORK/several.conf"
printf 'pid %s/nginx.pid;\nerror_log %s/error.log;\nevents {}\nhttp {\n  access_log off;\n  include %s/several.conf;\n}\n' "$WORK" "$WORK" "$WORK" > "$WORK/nginx-test.conf"
nginx -t -c "$WORK/nginx-test.conf"
else skip "nginx is not installed"; fi
DATA_DIR="$WORK/a" npm run files:migrate -- --to postgres
pg_dump --format=custom --file="$BACKUP_DIR/survey-bird.dump" "$DATABASE_URL"
pg_restore --list "$BACKUP_DIR/survey-bird.dump" >/dev/null
kill -TERM "$PID_A" "$PID_B"
wait "$PID_A" "$PID_B"
PIDS=()
echo "deploy-check: ok"
