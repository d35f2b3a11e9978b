#!/usr/bin/env python3
"""Writes the AAR's Maven repository layout, as a publishing plugin would lay it out:

    dist/maven/com/payhandoff/payhandoff/<version>/
        payhandoff-<version>.aar            the AAR of scripts/package_aar.sh
        payhandoff-<version>.pom            name, description, url, licences, scm, developers, kotlin-stdlib
        payhandoff-<version>.module         Gradle module metadata 1.1 (api/runtime/sources/javadoc variants)
        payhandoff-<version>-sources.jar    the Kotlin sources (bindings/android/src/main/kotlin)
        payhandoff-<version>-javadoc.jar    index.html: the public API as javap reads it from classes.jar
        each with .md5, .sha1, .sha256 (and .sha512, which Gradle's metadata names too)
    dist/maven/com/payhandoff/payhandoff/maven-metadata.xml (+ checksums)

Usage: maven_layout.py --aar AAR --classes DIR --sources DIR --version V --kotlin-version K --out DIST_MAVEN
Entries and files carry fixed dates: the same inputs give the same bytes. scripts/check_maven_layout.py
checks the result; make maven-check resolves it with Debian's Maven.
"""
import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import zipfile

GROUP, ARTIFACT = "com.payhandoff", "payhandoff"
URL = "https://github.com/payhandoff/payhandoff"
DESCRIPTION = ("Hosted checkout and Billpocket POS hand-offs for Android apps: deep links checked once, flows "
               "that survive process death, one tested core (Embedded Swift, C ABI, JNI).")
DATE = (2000, 1, 1, 0, 0, 0)
DIGESTS = ("md5", "sha1", "sha256", "sha512")


def deterministic_jar(path, entries):
    """entries: [(name, bytes)], written in order with a fixed date (a manifest first, as jar does)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\r\nCreated-By: PayHandoff scripts/maven_layout.py\r\n\r\n")] + entries:
            info = zipfile.ZipInfo(name, date_time=DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)


def sources_entries(root):
    files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs if f.endswith(".kt"))
    return [(f, open(os.path.join(root, f), "rb").read()) for f in files]


def javadoc_entries(classes, version):
    """One HTML page: every public class of classes.jar with its public members (javap -public)."""
    names = sorted(os.path.relpath(os.path.join(d, f), classes)[:-6].replace(os.sep, ".")
                   for d, _, fs in os.walk(classes) for f in fs if f.endswith(".class"))
    out = subprocess.run(["javap", "-public", "-cp", classes] + names, capture_output=True, text=True, check=True).stdout
    blocks, current = [], []
    for line in out.splitlines():
        if line.startswith("Compiled from"):
            if current:
                blocks.append(current)
            current = []
        elif line.strip():
            current.append(line)
    if current:
        blocks.append(current)
    # javap prints a class's block only when the class is public; synthetic and private classes drop out.
    blocks = [b for b in blocks if not b[0].startswith("}")]
    body = []
    name_of = lambda b: (re.search(r"\b(?:class|interface)\s+([\w.$]+)", b[0]) or re.search(r"(.*)", b[0])).group(1)
    for b in sorted(blocks, key=name_of):
        header, anchor = b[0].rstrip(" {"), name_of(b)
        body.append('<h2 id="%s">%s</h2>\n<pre>%s</pre>' % (html.escape(anchor), html.escape(header),
                                                            html.escape("\n".join(l for l in b[1:] if l.strip() != "}"))))
    page = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>PayHandoff %(v)s API</title></head>
<body>
<h1>PayHandoff %(v)s for Android: public API</h1>
<p>Generated from classes.jar with <code>javap -public</code> (Dokka is not available where this is built).
The guide, the events and the errors are in the README: <a href="%(url)s/tree/main/bindings/android">%(url)s/tree/main/bindings/android</a>.
Package <code>com.payhandoff</code>; %(n)d public classes.</p>
%(body)s
</body></html>
""" % {"v": html.escape(version), "url": URL, "n": len(blocks), "body": "\n".join(body)}
    return [("index.html", page.encode())]


def pom(version, kotlin_version):
    return """<?xml version="1.0" encoding="UTF-8"?>
<!-- SPDX-License-Identifier: Apache-2.0 -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <!-- This module was also published with a richer model, Gradle metadata,  -->
  <!-- which should be used instead. Do not delete the following line which  -->
  <!-- is to indicate to Gradle or any Gradle module metadata file consumer  -->
  <!-- that they should prefer consuming it instead. -->
  <!-- do_not_remove: published-with-gradle-metadata -->
  <modelVersion>4.0.0</modelVersion>
  <groupId>%(g)s</groupId>
  <artifactId>%(a)s</artifactId>
  <version>%(v)s</version>
  <packaging>aar</packaging>
  <name>PayHandoff</name>
  <description>%(d)s</description>
  <url>%(url)s</url>
  <licenses>
    <license>
      <name>Apache-2.0</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
      <distribution>repo</distribution>
    </license>
    <license>
      <name>MIT</name>
      <url>https://opensource.org/license/mit</url>
      <distribution>repo</distribution>
      <comments>cJSON 1.7.15, compiled into jni/*/libpayhandoff.so (licenses/cJSON.txt in the AAR)</comments>
    </license>
  </licenses>
  <developers>
    <developer>
      <id>payhandoff</id>
      <name>The PayHandoff developers</name>
      <url>%(url)s</url>
    </developer>
  </developers>
  <scm>
    <connection>scm:git:%(url)s.git</connection>
    <developerConnection>scm:git:%(url)s.git</developerConnection>
    <url>%(url)s</url>
  </scm>
  <dependencies>
    <dependency>
      <groupId>org.jetbrains.kotlin</groupId>
      <artifactId>kotlin-stdlib</artifactId>
      <version>%(k)s</version>
      <scope>compile</scope>
    </dependency>
  </dependencies>
</project>
""" % {"g": GROUP, "a": ARTIFACT, "v": version, "k": kotlin_version, "d": DESCRIPTION, "url": URL}


def file_entry(path):
    data = open(path, "rb").read()
    entry = {"name": os.path.basename(path), "url": os.path.basename(path), "size": len(data)}
    for d in ("sha512", "sha256", "sha1", "md5"):
        entry[d] = hashlib.new(d, data).hexdigest()
    return entry


def module(version, kotlin_version, aar, sources, javadoc):
    """Gradle module metadata 1.1: what AGP publishes for an AAR (api and runtime variants of the
    aar, sources and javadoc variants), kotlin-stdlib as the dependency."""
    stdlib = [{"group": "org.jetbrains.kotlin", "module": "kotlin-stdlib", "version": {"requires": kotlin_version}}]
    library = lambda usage: {"org.gradle.category": "library", "org.gradle.dependency.bundling": "external",
                             "org.gradle.libraryelements": "aar", "org.gradle.usage": usage}
    docs = lambda kind: {"org.gradle.category": "documentation", "org.gradle.dependency.bundling": "external",
                         "org.gradle.docstype": kind, "org.gradle.usage": "java-runtime"}
    return {
        "formatVersion": "1.1",
        "component": {"group": GROUP, "module": ARTIFACT, "version": version, "attributes": {"org.gradle.status": "release"}},
        "variants": [
            {"name": "releaseVariantReleaseApiPublication", "attributes": library("java-api"), "dependencies": stdlib, "files": [file_entry(aar)]},
            {"name": "releaseVariantReleaseRuntimePublication", "attributes": library("java-runtime"), "dependencies": stdlib, "files": [file_entry(aar)]},
            {"name": "releaseVariantReleaseSourcePublication", "attributes": docs("sources"), "files": [file_entry(sources)]},
            {"name": "releaseVariantReleaseJavaDocPublication", "attributes": docs("javadoc"), "files": [file_entry(javadoc)]},
        ],
    }


def write_checksums(path):
    data = open(path, "rb").read()
    for d in DIGESTS:
        with open("%s.%s" % (path, d), "w") as f:
            f.write(hashlib.new(d, data).hexdigest())


def main():
    p = argparse.ArgumentParser()
    for a in ("aar", "classes", "sources", "version", "kotlin-version", "out"):
        p.add_argument("--" + a, required=True)
    o = p.parse_args()
    artifact_dir = os.path.join(o.out, *GROUP.split("."), ARTIFACT)
    vdir = os.path.join(artifact_dir, o.version)
    shutil.rmtree(o.out, ignore_errors=True)
    os.makedirs(vdir)
    base = os.path.join(vdir, "%s-%s" % (ARTIFACT, o.version))
    shutil.copyfile(o.aar, base + ".aar")
    with open(base + ".pom", "w") as f:
        f.write(pom(o.version, o.kotlin_version))
    deterministic_jar(base + "-sources.jar", sources_entries(o.sources))
    deterministic_jar(base + "-javadoc.jar", javadoc_entries(o.classes, o.version))
    with open(base + ".module", "w") as f:
        json.dump(module(o.version, o.kotlin_version, base + ".aar", base + "-sources.jar", base + "-javadoc.jar"), f, indent=2)
        f.write("\n")
    for suffix in (".aar", ".pom", ".module", "-sources.jar", "-javadoc.jar"):
        write_checksums(base + suffix)
    with open(os.path.join(artifact_dir, "maven-metadata.xml"), "w") as f:
        f.write("""<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>%s</groupId>
  <artifactId>%s</artifactId>
  <versioning>
    <latest>%s</latest>
    <release>%s</release>
    <versions>
      <version>%s</version>
    </versions>
    <lastUpdated>20000101000000</lastUpdated>
  </versioning>
</metadata>
""" % (GROUP, ARTIFACT, o.version, o.version, o.version))
    write_checksums(os.path.join(artifact_dir, "maven-metadata.xml"))
    print("maven_layout: %s: aar, pom, module, -sources.jar, -javadoc.jar, each with .md5/.sha1/.sha256/.sha512; maven-metadata.xml"
          % os.path.relpath(vdir))


if __name__ == "__main__":
    main()
