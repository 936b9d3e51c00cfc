-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- The Iggy catalog quick start (docs/catalog.md). Before it runs, the stream 'shop' and its topic
-- 'raw-topic' (with a message or more) exist, created outside Flink; hence IF NOT EXISTS below.

-- Wait for each INSERT to finish before the next statement, and print results as tables.
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';

CREATE CATALOG iggy WITH (
  'type' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  -- Every SELECT reads from the start to the end the topic had when it started, so it ends.
  'default.scan.startup.mode' = 'earliest-offset',
  'default.scan.bounded.mode' = 'latest-offset'
);
USE CATALOG iggy;

SHOW DATABASES;
CREATE DATABASE IF NOT EXISTS shop;
SHOW TABLES IN shop;

-- Creates the topic 'orders' with 3 partitions and stores the schema and options.
CREATE TABLE shop.orders (order_id STRING, amount DECIMAL(10, 2))
  WITH ('partitions' = '3', 'format' = 'json');
INSERT INTO shop.orders VALUES ('o1', 9.99);
SELECT * FROM shop.orders;

-- A topic created outside Flink: its payload and metadata, with no DDL at all.
SELECT * FROM shop.`raw-topic`;
