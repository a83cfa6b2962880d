# One image for the backend (roles api, realtime, matchmaker, projector) and the sfu; compose picks the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# The SFU's mediasoup worker is built from the npm package's sources with Debian's libraries.
RUN apt-get update && apt-get install -y --no-install-recommends meson ninja-build pkg-config g++ make binutils \
      libuv1-dev libssl-dev libsrtp2-dev libusrsctp-dev libabsl-dev nlohmann-json3-dev \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY backend/package.json backend/
COPY sfu/package.json sfu/
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY . .
ENV XDG_CACHE_HOME=/app/.cache
RUN node scripts/mediasoup-worker.mjs && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# The worker's run-time libraries, and ffmpeg for server-side snapshots.
RUN apt-get update && apt-get install -y --no-install-recommends libuv1 libssl3 libsrtp2-1 libusrsctp2 \
      libabsl20220623 ffmpeg \
    && rm -rf /var/lib/apt/lists/*
ENV MEDIASOUP_WORKER_BIN=/app/.cache/serendip/mediasoup-worker/3.12.16/mediasoup-worker
COPY --from=build /app /app
# DATA_DIR (uploads) lives on a volume; a named volume takes this owner on first use.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "backend/dist/main.js"]
