FROM node:22-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
RUN npx react-router build && node -e "require('fs').writeFileSync('build/.base-path', '/')"
VOLUME ["/app/data"]
EXPOSE 3000
CMD ["node", "server/start.js"]
