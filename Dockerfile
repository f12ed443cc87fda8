# The console image: the built front end served by the API, and the same image runs the workers.
FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY backend/ backend/
COPY migrations/ migrations/
RUN pip install --no-cache-dir "./backend[production]"
COPY --from=frontend /src/frontend/dist frontend/dist
ENV STALLSCOPE_MIGRATIONS_DIR=/app/migrations \
    STALLSCOPE_FRONTEND_DIST=/app/frontend/dist
EXPOSE 8000
CMD ["stallscope", "serve", "--no-worker", "--host", "0.0.0.0"]
