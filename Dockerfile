# The back-office as one stateless app server (README, "Running on several servers").
# Build: docker build -t backoffice .   Run: see deploy/compose.yaml.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY schema ./schema
COPY server ./server
COPY scripts ./scripts
COPY src ./src
COPY tsconfig.json ./
USER node
EXPOSE 3000
# Liveness: the process answers. The load balancer asks /api/ready (the database answers too).
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself (not npm) receives SIGTERM: in-flight requests finish before it exits.
CMD ["node", "--import", "tsx", "server/main.ts"]
