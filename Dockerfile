# Storefront container image: a static binary on distroless, running as non-root.
#   make docker                      (passes the version from the git tags)
#   docker run -p 8080:8080 -v storefront-data:/data storefront
# The database, the backup socket and the backups live in the /data volume.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=v0.0.0-dev
ARG COMMIT=unknown
ARG BUILD_DATE=unknown
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT} -X main.buildDate=${BUILD_DATE}" \
      -o /out/storefront . \
 && mkdir -p /out/data

# distroless/static: no shell, no package manager; "nonroot" is uid 65532.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/storefront /usr/local/bin/storefront
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV STOREFRONT_DATA_DIR=/data \
    STOREFRONT_HTTP__ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
# The binary is its own probe (the image has no curl): GET /healthz of http.addr.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/storefront", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/storefront"]
CMD ["serve"]
