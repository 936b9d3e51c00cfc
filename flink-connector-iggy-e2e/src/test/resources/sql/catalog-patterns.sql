-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- docs/catalog.md, "Patterns and topic lists": after the quick start's catalog (repeated here), a
-- pattern table outside the catalog reads topics the catalog created.
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';

CREATE CATALOG iggy WITH (
  'type' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'default.scan.startup.mode' = 'earliest-offset',
  'default.scan.bounded.mode' = 'latest-offset'
);
USE CATALOG iggy;
CREATE DATABASE IF NOT EXISTS shop;

-- Two topics created through the catalog, each one table.
CREATE TABLE IF NOT EXISTS shop.`orders-eu` (line STRING) WITH ('format' = 'raw');
CREATE TABLE IF NOT EXISTS shop.`orders-us` (line STRING) WITH ('format' = 'raw');
INSERT INTO shop.`orders-eu` VALUES ('eu-1');
INSERT INTO shop.`orders-us` VALUES ('us-1');

-- One table over both, and every later 'orders-...' topic, outside the catalog.
CREATE TABLE default_catalog.default_database.all_orders (
  line STRING,
  `topic` STRING METADATA VIRTUAL
) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic-pattern' = 'orders-.*',
  'format' = 'raw',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);
SELECT `topic`, line FROM default_catalog.default_database.all_orders;
