# One image for the backend (roles api, realtime, matchmaker, projector) and the sfu; compose picks the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY backend/package.json backend/
COPY sfu/package.json sfu/
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
# DATA_DIR (uploads) lives on a volume; a named volume takes this owner on first use.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "backend/dist/main.js"]
