-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.
-- The Iggy catalog quick start, exactly as docs/catalog.md shows it (DocumentedCodeTest). Before it
-- runs, the stream 'shop' and its topic 'raw-topic' (with a message or more) exist, created outside
-- Flink, as in the playground; the other pages' tables may exist too, hence IF NOT EXISTS.

-- Wait for each INSERT to finish before the next statement, and print results as tables.
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';

-- Every SELECT reads from the start to the end the topic had when it started, so it ends.
CREATE CATALOG iggy WITH (
  'type' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'default.scan.startup.mode' = 'earliest-offset',
  'default.scan.bounded.mode' = 'latest-offset'
);
USE CATALOG iggy;

-- The Iggy streams, as databases; CREATE DATABASE creates a stream.
SHOW DATABASES;
CREATE DATABASE IF NOT EXISTS shop;
-- Its topics, as tables.
SHOW TABLES IN shop;

-- Creates the topic 'payments' with 3 partitions and stores the schema and options in Iggy.
CREATE TABLE IF NOT EXISTS shop.payments (order_id STRING, amount DECIMAL(10, 2))
  WITH ('partitions' = '3', 'format' = 'json');
INSERT INTO shop.payments VALUES ('o1', 9.99);
-- No connection options repeated.
SELECT * FROM shop.payments;

-- A topic created outside Flink, with no DDL at all: its payload (bytes, here shown as text) and
-- where each message is.
SELECT CAST(payload AS STRING) AS payload, `partition`, `offset` FROM shop.`raw-topic`;
