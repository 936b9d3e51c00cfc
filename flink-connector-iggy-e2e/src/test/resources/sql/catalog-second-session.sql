-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- Another SQL client after catalog-quickstart.sql: the same catalog shows the tables the first
-- session created, with their schemas and options, read back from Iggy.

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

SHOW TABLES IN shop;
SHOW CREATE TABLE shop.payments;
INSERT INTO shop.payments VALUES ('o2', 1.50);
SELECT * FROM shop.payments;
