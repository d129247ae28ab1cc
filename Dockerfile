# Ferry's image, built from this repository alone: the Maven wrapper fetches Maven and every
# dependency from Maven Central, with the same versions as `./mvnw verify`.
#   docker build -t ferry:local .        (docker-compose.yml does this)
FROM eclipse-temurin:17-jdk-jammy AS build
WORKDIR /src
COPY . .
RUN ./mvnw --batch-mode --no-transfer-progress -q -DskipTests -pl cli -am package \
 && java -Djarmode=tools -jar cli/target/ferry.jar extract --destination /opt/ferry

FROM eclipse-temurin:17-jre-jammy
RUN useradd --system --uid 1001 --home-dir /opt/ferry ferry \
 && printf '#!/bin/sh\nset -f\nexec java -XX:SharedArchiveFile=/opt/ferry/ferry.jsa -Xlog:cds=off -Xlog:cds+dynamic=off ${FERRY_JAVA_OPTS:-} -jar /opt/ferry/ferry.jar "$@"\n' > /usr/local/bin/ferry \
 && chmod 755 /usr/local/bin/ferry
# As the ferry launcher does: the jar extracted (a plain class path), and a class-data archive made by a
# training start of config/ferry.yml that stops once the application is built (no broker needed), so
# the bridge starts in about a quarter of the time. Made with this image's Java, the only one it is valid for.
COPY --from=build /opt/ferry/ /opt/ferry/
COPY --from=build /src/config/ferry.yml /opt/ferry/training/ferry.yml
RUN java -XX:ArchiveClassesAtExit=/opt/ferry/ferry.jsa -Dspring.context.exit=onRefresh -Djava.io.tmpdir=/opt/ferry/training \
      -jar /opt/ferry/ferry.jar run --config /opt/ferry/training/ferry.yml > /dev/null \
 && rm -rf /opt/ferry/training
USER ferry
WORKDIR /opt/ferry
# The management port (Actuator: health, metrics, profiling).
EXPOSE 8091
# exec in the wrapper makes java PID 1, so `docker stop` (SIGTERM) drains the channels and prints the tables.
ENTRYPOINT ["ferry"]
CMD ["run", "--config", "/config/ferry.yml"]
