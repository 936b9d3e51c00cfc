-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.


-- Configuration errors typed into one interactive SQL client (which goes on after a failed
-- statement): a misspelt topic and a wrong password, read by SELECT and written by INSERT. Each
-- must fail at once with the connector's message, whatever the restart strategy the test sets
-- before these lines.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';

CREATE TABLE misspelt (line STRING) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'ordres',
  'format' = 'raw'
);

CREATE TABLE wrong_password (line STRING) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'not-the-password',
  'stream' = 'shop',
  'topic' = 'orders',
  'format' = 'raw'
);

SELECT * FROM misspelt;
SELECT * FROM wrong_password;
INSERT INTO misspelt VALUES ('lost');
INSERT INTO wrong_password VALUES ('lost');
