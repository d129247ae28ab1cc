# Ferry's image, built from this repository alone: the Maven wrapper fetches Maven and every
# dependency from Maven Central, with the same versions as `./mvnw verify`.
#   docker build -t ferry:local .        (docker-compose.yml does this)
FROM eclipse-temurin:17-jdk-jammy AS build
WORKDIR /src
COPY . .
RUN ./mvnw --batch-mode --no-transfer-progress -q -DskipTests -pl adapter-app -am package

FROM eclipse-temurin:17-jre-jammy
RUN useradd --system --uid 1001 --home-dir /opt/ferry ferry \
 && printf '#!/bin/sh\nexec java ${FERRY_JAVA_OPTS:-} -jar /opt/ferry/ferry.jar "$@"\n' > /usr/local/bin/ferry \
 && chmod 755 /usr/local/bin/ferry
COPY --from=build /src/adapter-app/target/ferry.jar /opt/ferry/ferry.jar
USER ferry
WORKDIR /opt/ferry
# The management port (Actuator: health, metrics, profiling).
EXPOSE 8091
# exec in the wrapper makes java PID 1, so `docker stop` (SIGTERM) drains the channels and prints the tables.
ENTRYPOINT ["ferry"]
CMD ["run", "--config", "/config/ferry.yml"]
