/** An in-JVM Iggy server and JUnit 5 support for tests against it or a real server. */
package org.apache.flink.connector.iggy.testutils;
