# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# docs/getting-started.md (Watch a failover): run by PlaygroundIT line by line, from the
# repository's root, while the playground runs, with exactly-once.sql (the playground script of
# docs/table-sql.md, sql/exactly-once-playground.sql) beside it; PlaygroundIT waits where the page
# says to wait.
./playground.sh topic create shop/large-orders
seq 1001 2000 | sed 's/.*/{"order_id":"o-&","customer":"c","amount":&}/' | ./playground.sh send shop/orders
./playground.sh sql -f exactly-once.sql
./playground.sh poll shop/large-orders --count 5000 | grep -c payload=
./playground.sh taskmanager kill
./playground.sh flink list
seq 2001 3000 | sed 's/.*/{"order_id":"o-&","customer":"c","amount":&}/' | ./playground.sh send shop/orders
./playground.sh taskmanager start
./playground.sh poll shop/large-orders --count 5000 | grep -c payload=
./playground.sh poll shop/large-orders --count 5000 | cut -d' ' -f2- | sort | uniq -d | wc -l
